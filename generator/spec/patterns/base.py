"""What every rule pattern shares: the parameter model's base, the parts of what patterns make, and
where a parameter's text was written.

A pattern's model is its typed parameter schema (pydantic: unknown keys and wrong types are
errors at the use's line, like any spec entry; the JSON schema and `triplea-forge patterns` come
from it), and its `make` builds what one use stands for as spec data: the dicts and lists a spec
file would read as, which `expansion` merges into the tree. Nothing is written as text and read
back; `reference` writes what each pattern makes as YAML, for the reader.

Every text parameter is a `Text`. While a use is expanded, its texts are `Located`: the text
with where the spec writes it, which the model keeps (pydantic would make a plain copy). What
`make` passes through as given is said at that parameter's line; what it computes (a name made of
several) is said at the use.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidatorFunctionWrapHandler, WrapValidator

from generator.diagnostics import Mark
from generator.errors import TripleaForgeError
from generator.spec.numbers import Count

Uses = Mapping[str, Mapping[str, "Pattern | None"]]
"""The uses expanded so far, by collection and name: a pattern may read another's (a schedule).
None: a use that could not be read (its problems are said where it is)."""

Made = list[dict[str, Any]]
"""What one use stands for: spec documents (each as a spec file would read), merged in order."""


class Located(str):
    """A parameter's text as one use gives it, with where the spec writes it and whose it is
    (`use`: the collection and name of the use; another use's text read by this one, a
    schedule's place, is said at this use like anything it computes)."""

    mark: Mark
    use: tuple[str, str]

    def __new__(cls, text: str, mark: Mark, use: tuple[str, str]) -> Located:
        made = super().__new__(cls, text)
        made.mark, made.use = mark, use
        return made

    def __reduce__(self) -> tuple[Any, ...]:
        return Located, (str(self), self.mark, self.use)  # str's own would lose the mark


def _keep_located(value: Any, checked: ValidatorFunctionWrapHandler) -> Any:
    text = checked(value)  # a text's checks and errors, as for any str
    return value if isinstance(value, Located) else text


Text = Annotated[str, WrapValidator(_keep_located)]
"""A text parameter: a str that stays `Located` when the use's is."""

Units = list[Text] | dict[Text, Count]
"""Units as a list (a name twice is two) or as {unit: how many}."""


class PatternError(TripleaForgeError):
    """A use whose parameters are well-typed but do not fit the rest of the spec (in words).

    `where` is the parameter's path inside the use, so the message points at that line.
    """

    def __init__(self, message: str, *where: str | int) -> None:
        super().__init__(message)
        self.where = where


class Consequence(PatternError):
    """A problem that follows from another use's (a schedule that could not be read): said there."""


class Part(BaseModel):
    """A structured parameter of a pattern (a nation of a schedule, a choice of places...)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class Pattern(Part):
    """One use of a pattern: its parameters. Subclasses say where uses live and how they read."""

    collection: ClassVar[str]  # the spec key holding the uses (a mapping: name -> parameters)
    noun: ClassVar[str]  # what one use is called in messages and in `diff`
    example: ClassVar[str]  # uses as a spec would write them (the reference shows them and what they make)
    ordered: ClassVar[tuple[str, ...]] = ()  # parameters whose mapping's order is part of the rule

    ledger: list[Text] = Field(default=[], description="Rule-ledger ids that everything the pattern makes implements.")
    expect: Literal["fires", "offered", "never"] | None = Field(
        default=None,
        description="What the use must do when `check` plays the game: `fires` (a trigger it makes fires, an "
        "objective pays or an action is taken), `offered` (an action it makes is open to its player, or it fires), "
        "`never` (none of these); `check` fails at the use's line otherwise.",
    )

    def problems(self) -> list[PatternError]:
        """Mistakes within the parameters that leave the rest usable (said, and the use still made)."""
        return []

    def make(self, name: str, uses: Uses) -> Made:
        """What the use called `name` stands for, as spec data (raises PatternError)."""
        raise NotImplementedError


# ---------------------------------------------------------------- what patterns make often


def attachments(owner: str, entries: dict[str, Any]) -> dict[str, Any]:
    """A spec document giving player `owner` the attachments `entries`."""
    return {"players": {owner: {"attachments": entries}}}


def counted(units: Units) -> Counter[str]:
    """How many of each unit, in the order first named."""
    return Counter(units) if isinstance(units, list) else Counter({u: n for u, n in units.items()})


def placement(territory: str, units: Units) -> list[Any]:
    """A trigger's `placement` option for units in one territory: the single units in one entry,
    each unit placed more than once as {value, count} (the engine adds the entries up)."""
    counts = counted(units)
    singles = [unit for unit, n in counts.items() if n == 1]
    out: list[Any] = [[territory, *singles]] if singles else []
    out += [{"value": [territory, unit], "count": n} for unit, n in counts.items() if n > 1]
    return out


def activation(trigger: str, test_conditions: bool = False) -> list[Any]:
    """One `activateTrigger` entry: fire `trigger` once, testing its conditions or not."""
    return [trigger, 1, False, False, test_conditions, False]


def switch(holder: str, condition: str, on: bool) -> dict[str, Any]:
    """Trigger options that set a condition's switch (a RulesAttachment of player `holder`)."""
    return {
        "players": [holder],
        "playerAttachmentName": [condition, "RulesAttachment"],
        "playerProperty": [on, "switch"],
    }


@dataclass(frozen=True)
class ActionText:
    """What a user action says in the client (actionstext.properties): its button, its description
    and the notice when it is done."""

    key: str
    button: str
    description: str
    done: str = ""

    def entries(self) -> dict[str, str]:
        done = self.done or f"{self.button}: done."
        return {
            f"{self.key}.BUTTON": self.button,
            f"{self.key}.DESCRIPTION": self.description,
            f"{self.key}.NOTIFICATION_SUCCESS": done,
            f"{self.key}.OTHER_NOTIFICATION_SUCCESS": done,
            f"{self.key}.NOTIFICATION_FAILURE": "NONE",
            f"{self.key}.OTHER_NOTIFICATION_FAILURE": "NONE",
        }


def action_texts(texts: Sequence[ActionText]) -> dict[str, str]:
    out: dict[str, str] = {}
    for text in texts:
        out.update(text.entries())
    return out


_NUMBERS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def units_in_words(units: Units) -> str:
    """'an infantry', 'two infantry', 'a fighter and an artillery': for a button's text."""
    words = []
    for unit, n in counted(units).items():
        article = "an" if unit[:1].lower() in "aeiou" else "a"
        words.append(f"{article} {unit}" if n == 1 else f"{_NUMBERS.get(n, str(n))} {unit}")
    return " and ".join(words)
