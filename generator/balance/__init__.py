"""Balance studies: many seeded all-AI games per variant, compared with confidence intervals."""
