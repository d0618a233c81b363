"""What to say when a call passes arguments a rule's signature does not take."""
import re

_MASKED = {"np.mean": "`np.sum(x * mask) / np.sum(mask)` for `np.mean(x, where=mask)`",
           "np.min": "`np.min(np.where(mask, x, np.inf))`",
           "np.max": "`np.max(np.where(mask, x, -np.inf))`"}


def rule_arguments(rule, label, exc):
    """(message, hint) when a call NumPy may accept passes what the rule does not take:
    a keyword the function has and its rule does not (`where=`) is the rule's limit."""
    sig = getattr(rule, "signature", None)
    takes = f"{label}'s derivative rule takes {sig}" if sig is not None else \
        f"check the call of {label}"
    keyword = re.search(r"unexpected keyword argument '(\w+)'", str(exc))
    if keyword is None:
        return f"bad arguments for {label}: {exc}", takes
    message = f"{label}(..., {keyword[1]}=...): thunkgrad's derivative rule for {label} " \
        f"does not support the keyword `{keyword[1]}`"
    if keyword[1] == "where":
        return message, takes + "; write the masked reduction without it: " + _MASKED.get(
            label, "`np.sum(np.where(mask, x, 0.0))`")
    return message, takes
