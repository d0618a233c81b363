"""Stage 5, analyze: activity, no-derivative reasons, shape classes, what the tape saves,
views to copy; and the loop pass's accumulation decisions, consulted by stage 6."""
