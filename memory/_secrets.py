"""The screen's third layer: secrets and personal data a guideline must never carry.

Keys and tokens are found by `detect-secrets` (its detectors for cloud keys, JWTs, private keys,
GitHub/Slack/Stripe/OpenAI tokens, `key = value` assignments; the entropy detectors are left out,
they fire on ordinary words). Phone numbers by `phonenumbers` (only numbers valid for their
region, or any number possible in shape that the text names as a private person's: "her
personal mobile"). Numbers with a check digit are accepted only when it holds: payment cards
(Luhn and an issuer prefix), IBANs (ISO 13616 mod 97), US social security numbers (the SSA's
rules on area, group and serial). Passwords in prose ("the password is X") by a pattern.

Contact points of an organisation are not personal data: an address of a role mailbox (RFC 2142:
`support@`, `info@`, `billing@`, ...) and a toll-free, shared-cost or premium-rate number (the
type `phonenumbers` reports) may stand in a policy, and so may a number the text names as a
public line ("the public 311 line", "the city's non-emergency number"). A machine's alarm code
("alarm code E-4021") names a fault, not a secret. Sending data to any address is the intent
layer's business, whatever the mailbox.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

_EMAIL = re.compile(r"\b([A-Za-z0-9._%+-]+)@[A-Za-z0-9.-]+\.[A-Za-z]{2,}\b")
# RFC 2142 mailbox names for services and roles, plus the common customer-service ones.
ROLE_MAILBOXES = frozenset(
    "info marketing sales support abuse noc security postmaster hostmaster usenet news webmaster "
    "www uucp ftp help helpdesk service customerservice care contact hello billing accounts "
    "invoices privacy legal complaints feedback press media careers jobs reservations bookings "
    "orders returns noreply no-reply".split()
)
_PASSWORD = re.compile(
    r"\b(?:password|passwd|passphrase|passcode|pwd|pin|login|(?:override|master|bypass|backdoor|"
    r"unlock|admin|emergency|door|alarm|vault) (?:code|key|pin))\b"
    r"(?:\s+(?:for|of|on)\s+(?:the\s+)?[\w .'’-]{1,30}?\s+(?:is|was|=|:))?"
    r"(?:\s+(?:is|was|=|:)|\s*[:=]|"
    r"\s+[-—])?\s*['\"`]?(?P<value>[^\s'\"`,;]{6,})",
    re.IGNORECASE,
)
# A machine's alarm code is a fault's name ("alarm code E-4021"), letters and digits by a hyphen.
_FAULT_CODE = re.compile(r"alarm code", re.IGNORECASE)
_FAULT_NAME = re.compile(r"[A-Z]{1,4}-?\d{2,6}[.!?]?")
# A user name and a password written as a pair ("log in with admin / Pa55word!").
_CREDENTIAL_PAIR = re.compile(
    r"\b(?:log ?in|sign ?in|authenticate|credentials?|user(?:name)?)\b[^.;\n]{0,20}?"
    r"['\"`]?[\w.@+-]{3,}['\"`]?\s*(?:/|\||:)\s*['\"`]?(?P<value>[^\s'\"`,;]{6,})",
    re.IGNORECASE,
)
_URL_CREDENTIALS = re.compile(r"\b[a-z][a-z0-9+.-]*://[^\s:/@]+:[^\s@/]+@", re.IGNORECASE)
_BIRTH_DATE = re.compile(
    r"\b(?:date of birth|dob|d\.o\.b\.?|born on|birth ?date|birthday)\b\D{0,15}"
    r"(?:\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}-\d{2}-\d{2}|\d{1,2}\s+[A-Z][a-z]+\s+\d{4}|"
    r"[A-Z][a-z]+\s+\d{1,2},?\s+\d{4})",
    re.IGNORECASE,
)
_KEYED_NUMBER = re.compile(
    r"\b(?:passport|driver'?s licen[cs]e|national id|tax id|pin|cvv|cvc|security code|"
    r"one-time code|otp)\b(?:\s+(?:number|no\.?|#|code))?\s*(?:is|was|:|=)?\s*"
    r"(?P<value>[A-Z0-9]{3,12})\b",
    re.IGNORECASE,
)
# A phone number named as a private person's ("her personal mobile +44 ...", "home phone:").
_PERSONAL_PHONE = re.compile(
    r"\b(?:(?:personal|private|home|mobile|cell(?:phone)?|whatsapp)\s+"
    r"(?:(?:mobile|phone|cell|landline)\s+)?(?:number|line|phone|mobile|cell|no\.?)?|"
    # Someone's: the number named as a phone ("Maria's work mobile"), not an organisation's EIN
    # or its public line ("the office's public line").
    r"(?:her|his|(?-i:[A-Z][a-z]+)'s)\s+(?!(?:public|main|general|office|switchboard)\b)"
    r"(?:\w+\s+)?(?:number|line|phone|mobile|cell|no\.?))"
    r"\s*(?:is\s+|:\s*|at\s+|on\s+)?"
    r"(?P<number>\+?\(?\d[\d ().-]{7,}\d)",
    re.IGNORECASE,
)
_CARD = re.compile(r"(?<![\d-])(?:\d[ -]?){12,18}\d(?![\d-])")
_IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,3})?\b")
_SSN = re.compile(r"(?<![\d-])(\d{3})([- ])(\d{2})\2(\d{4})(?![\d-])")
_SSN_BARE = re.compile(
    r"\b(?:ssn|social security(?: number)?)\b\D{0,20}(\d{3})(\d{2})(\d{4})\b", re.I
)
_JWT = re.compile(r"\beyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{8,}")
_PEM = re.compile(r"-----BEGIN [A-Z ]*(?:PRIVATE KEY|CERTIFICATE)-----")
_CARD_PREFIXES = ("4", "34", "37", "36", "38", "30", "35", "6011", "65", "62") + tuple(
    str(p) for p in [*range(51, 56), *range(2221, 2721)]
)


def luhn_valid(digits: str) -> bool:
    """Luhn checksum (ISO/IEC 7812-1), the check digit scheme of payment card numbers."""
    numbers = [int(c) for c in digits if c.isdigit()]
    if len(numbers) < 13:
        return False
    total = 0
    for position, value in enumerate(reversed(numbers)):
        if position % 2 == 1:
            value *= 2
            if value > 9:
                value -= 9
        total += value
    return total % 10 == 0


def iban_valid(text: str) -> bool:
    """ISO 13616 check: move the first four characters to the end, letters to numbers, mod 97."""
    compact = re.sub(r"\s", "", text).upper()
    if not 15 <= len(compact) <= 34:
        return False
    moved = compact[4:] + compact[:4]
    return int("".join(str(int(c, 36)) for c in moved)) % 97 == 1


def ssn_valid(area: str, group: str, serial: str) -> bool:
    """A US SSN the SSA could issue: area not 000, 666 or 9xx; group not 00; serial not 0000."""
    return area not in ("000", "666") and area[0] != "9" and group != "00" and serial != "0000"


@lru_cache(maxsize=1)
def _detect_secrets_plugins() -> Any:
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class

    plugins: dict[str, type] = get_mapping_from_secret_type_to_class()
    names = [plugin.__name__ for plugin in plugins.values()]
    return [
        {"name": name} for name in names if "HighEntropy" not in name and name != "IPPublicDetector"
    ]


def _library_secrets(text: str) -> list[str]:
    from detect_secrets.core.scan import scan_line
    from detect_secrets.settings import transient_settings

    found: list[str] = []
    with transient_settings({"plugins_used": _detect_secrets_plugins()}):
        for line in text.splitlines() or [text]:
            found += [str(secret.type) for secret in scan_line(line)]
    return found


def _phones(text: str) -> bool:
    import phonenumbers

    business = {
        phonenumbers.PhoneNumberType.TOLL_FREE,
        phonenumbers.PhoneNumberType.SHARED_COST,
        phonenumbers.PhoneNumberType.PREMIUM_RATE,
    }
    matcher = phonenumbers.PhoneNumberMatcher(text, "US", leniency=phonenumbers.Leniency.VALID)
    return any(
        not luhn_valid(m.raw_string)
        and phonenumbers.number_type(m.number) not in business
        and not _inside_a_code(text, m.start, m.end)
        and not _public_line(text, m.start)
        for m in matcher
    )


# An organisation's public line named before the number: "the public 311 line (dial ..., or",
# "the city's non-emergency number", "our switchboard"; no person named in between.
_PUBLIC_LINE = re.compile(
    r"\b(?:public|main|general|non-emergency|city|council|town hall|municipal|information|"
    r"switchboard|hotline|helpline|customer (?:service|care)|reception|front desk|office)\b"
    r"(?:(?!\b(?:personal|private|home|mobile|cell|whatsapp|her|his|\w+'s)\b)[^.;\n]){0,50}$",
    re.IGNORECASE,
)


# Or a line the text says is published: "both are printed on our public website".
_PUBLISHED = re.compile(
    r"\b(?:printed|published|listed|shown|advertised|displayed) (?:on|in) (?:our|the|its) "
    r"(?:public |own )?(?:website|web ?site|site|web page|directory|brochure|letterhead|"
    r"listing)\b",
    re.IGNORECASE,
)
_A_PERSON_BEFORE = re.compile(
    r"\b(?:personal|private|home|mobile|cell|whatsapp|her|his|\w+'s)\b[^.;\n]{0,50}$", re.IGNORECASE
)


def _public_line(text: str, start: int) -> bool:
    if _PUBLIC_LINE.search(text[:start]):
        return True
    return bool(_PUBLISHED.search(text)) and not _A_PERSON_BEFORE.search(text[:start])


def _inside_a_code(text: str, start: int, end: int) -> bool:
    # Digits joined to letters or more digits by a hyphen or a slash belong to a code or an
    # identifier (BK-2026-004417, INV-2026-11-0387), not to a phone number written in prose.
    return bool(re.search(r"[A-Za-z0-9][-/_#]$", text[:start]) or re.match(r"[-/_]\w", text[end:]))


def _personal_phones(text: str) -> bool:
    # A number possible in shape and named as a person's: fictional and unallocated ranges (the
    # UK's 07700 900xxx drama numbers) are no valid number, but the text still hands one on.
    import phonenumbers

    for match in _PERSONAL_PHONE.finditer(text):
        raw = match.group("number")
        try:
            number = phonenumbers.parse(raw, "US" if raw.startswith("+") else "GB")
        except phonenumbers.NumberParseException:
            continue
        if phonenumbers.is_possible_number(number) and not luhn_valid(raw):
            return True
    return False


def personal_emails(text: str) -> list[str]:
    """E-mail addresses in the text that are not role mailboxes (RFC 2142 and the like)."""
    return [m.group(0) for m in _EMAIL.finditer(text) if m.group(1).lower() not in ROLE_MAILBOXES]


def _keyed_secrets(text: str) -> list[str]:
    """Secrets named by what they are: a login pair, a URL with a password, a birth date, ..."""
    reasons = []
    for match in _CREDENTIAL_PAIR.finditer(text):
        value = match.group("value")
        if re.search(r"[A-Za-z]", value) and re.search(r"[\d!#$%^&*?~@]", value):
            reasons.append("carries a user name and password")
            break
    if _URL_CREDENTIALS.search(text):
        reasons.append("carries credentials in a URL")
    if _BIRTH_DATE.search(text):
        reasons.append("carries a date of birth")
    if any(re.search(r"\d", m.group("value")) for m in _KEYED_NUMBER.finditer(text)):
        reasons.append("carries an identity number or code")
    return reasons


def secrets_and_pii(text: str) -> list[str]:
    """One reason per kind of secret or personal data found in the text."""
    reasons = [f"carries a secret ({kind})" for kind in dict.fromkeys(_library_secrets(text))]
    if _JWT.search(text) and not any("JSON Web Token" in r for r in reasons):
        reasons.append("carries a secret (JSON Web Token)")
    if _PEM.search(text) and not any("Private Key" in r for r in reasons):
        reasons.append("carries a secret (Private Key)")
    for match in _PASSWORD.finditer(text):
        value = match.group("value")
        if _FAULT_CODE.match(match.group(0)) and _FAULT_NAME.fullmatch(value):
            continue
        if re.search(r"[A-Za-z]", value) and re.search(r"[\d\W_]", value.rstrip(".!?")):
            reasons.append("carries a password")
            break
    reasons += _keyed_secrets(text)
    for match in _CARD.finditer(text):
        digits = re.sub(r"\D", "", match.group(0))
        if luhn_valid(digits) and digits.startswith(_CARD_PREFIXES):
            reasons.append("carries a payment card number (Luhn-valid)")
            break
    if any(iban_valid(m.group(0)) for m in _IBAN.finditer(text)):
        reasons.append("carries an IBAN (checksum valid)")
    ssns = [m.group(1, 3, 4) for m in _SSN.finditer(text)] + [
        m.group(1, 2, 3) for m in _SSN_BARE.finditer(text)
    ]
    if any(ssn_valid(*parts) for parts in ssns):
        reasons.append("carries a social security number")
    if personal_emails(text):
        reasons.append("carries an e-mail address")
    if _phones(text):
        reasons.append("carries a phone number")
    elif _personal_phones(text):
        reasons.append("carries a private person's phone number")
    return reasons


__all__ = [
    "ROLE_MAILBOXES",
    "iban_valid",
    "luhn_valid",
    "personal_emails",
    "secrets_and_pii",
    "ssn_valid",
]
