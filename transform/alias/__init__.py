"""Stage 2, check (continued): the alias analysis. A write through memory another live
name may share, or a call that writes into its arguments, is refused at the user's line."""
