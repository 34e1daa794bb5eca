"""Balance studies: many seeded all-AI games per variant, compared with confidence intervals.

Reads built game XMLs and plays them through the engine harness (local warm JVMs or Ray tasks);
gives JSON Lines records per game and a report (table, Markdown, charts, one HTML page).
"""
