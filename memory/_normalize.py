"""The screen's first layer: undo the tricks that hide words from a pattern.

`views(text)` returns the text as a reader would see it, in several forms: Unicode NFKC (full-width
letters become ASCII), zero-width and other format or control characters removed, look-alike
letters from other scripts mapped to Latin (Cyrillic `о`, Greek `Ι`, ...), HTML character
references read as the characters they name (`&#73;&#103;...`), letters spelled out
with spaces, hyphens or dots joined back into words (`I-g-n-o-r-e`), digits used as letters read
as letters (`1gn0r3`), words cut into syllables by hyphens joined (`ex-fil-trate`), and
spelled-out addresses (`attacker at evil dot com`). `decoded(text)` finds base64, hex and
URL-encoded spans and returns what they decode to, for the screen to read.

Two more readings undo hiding that keeps no word intact: `resegmented(text)` runs each clause's
letters together and splits them again into English words (`wordninja`, word costs from English
Wikipedia unigram frequencies), which repairs words split mid-word (`ver ific ation`,
`Dis-re-gard`) and spelled-out letters whose word gaps were lost; `turned(text)` is the text
reversed and ROT13-decoded, read because a guideline has no reason to hold either.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import html
import re
import unicodedata
import urllib.parse

# Letters of other scripts that render like Latin ones (Unicode TR39 confusables, the subset
# that maps to a single Latin letter and occurs in attacks on English text).
_CONFUSABLES = str.maketrans(
    {
        "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
        "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ј": "j", "ԁ": "d",
        "ԛ": "q", "ԝ": "w", "ɡ": "g", "ⅼ": "l", "ı": "i", "ո": "n", "ս": "u",
        "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P",
        "С": "C", "Т": "T", "У": "Y", "Х": "X", "Ѕ": "S", "І": "I", "Ј": "J", "Ԁ": "D",
        "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M",
        "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "ο": "o", "ν": "v",
        "α": "a", "ι": "i", "κ": "k", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ϲ": "c",
        "ε": "e", "ϵ": "e", "є": "e", "η": "n", "ω": "w", "ɑ": "a", "ʋ": "u", "ѵ": "v",
        "ℓ": "l", "ɩ": "i", "ɾ": "r", "ԍ": "G", "Ꭺ": "A", "Ꭼ": "E", "Ꮪ": "S", "Ꭲ": "T",
        "ᴀ": "a", "ʙ": "b", "ᴄ": "c", "ᴅ": "d", "ᴇ": "e", "ꜰ": "f", "ɢ": "g", "ʜ": "h", "ɪ": "i",
        "ᴊ": "j", "ᴋ": "k", "ʟ": "l", "ᴍ": "m", "ɴ": "n", "ᴏ": "o", "ᴘ": "p", "ʀ": "r", "ꜱ": "s",
        "ᴛ": "t", "ᴜ": "u", "ᴠ": "v", "ᴡ": "w", "ʏ": "y", "ᴢ": "z",
    }
)  # fmt: skip
_CONFUSABLES_KEYS = frozenset(chr(code) for code in _CONFUSABLES)
_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a"})
_SPELLED = re.compile(
    r"(?<![A-Za-z])(?:[A-Za-z](?:[ \t]{1,3}|[-._*·|/+~_]+)){2,}[A-Za-z](?![A-Za-z])"
)
# Not inside an address or a domain ("support@acme-air.com" must stay an address).
# Not a code of a few letters and its number ("bs7671", "a320", "inv2041"): leet mixes them.
_LEET_WORD = re.compile(
    r"\b(?![a-z]{1,4}\d{2,}\b)(?=[a-z0-9@]*[a-z])(?=[a-z0-9@]*[013457@])[a-z0-9@]{3,}\b"
    r"(?![-.\w]*\.[a-z])"
)
_AT_DOT = re.compile(
    r"\b([\w.+-]+)\s*(?:\(at\)|\[at\]|\{at\}|\sat\s)\s*([\w-]+)\s*"
    r"(?:\(dot\)|\[dot\]|\{dot\}|\sdot\s)\s*([a-z]{2,10})\b",
    re.IGNORECASE,
)
_DOT = re.compile(
    r"\b([\w-]+)\s*(?:\(dot\)|\[dot\]|\{dot\}|\sdot\s)\s*(com|net|org|io|info|me|ru|cn|xyz|co|biz|"
    r"top)\b",
    re.IGNORECASE,
)  # noqa: E501
# A word cut into syllables by hyphens ("ex-fil-trate", "pay-roll"): read with them removed too.
_SYLLABLE_HYPHEN = re.compile(r"(?<=[a-z])-(?=[a-z])")
_BASE64 = re.compile(r"[A-Za-z0-9+/_-]{16,}={0,2}")
_HEX = re.compile(r"\b(?:[0-9a-fA-F]{2}){8,}\b")
_URL_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")
# Printable ASCII written as numbers, bits, escapes or HTML entities, eight characters or more.
_CHAR_CODES = re.compile(
    r"\b(?:(?:3[2-9]|[4-9]\d|1[01]\d|12[0-6])[\s,]+){7,}(?:3[2-9]|[4-9]\d|1[01]\d|12[0-6])\b"
)
_BITS = re.compile(r"\b(?:[01]{8}[\s,]+){7,}[01]{8}\b")
_ESCAPES = re.compile(r"(?:\\u[0-9a-fA-F]{4}|\\x[0-9a-fA-F]{2}|&#x?[0-9a-fA-F]+;){8,}")
_TAG_BASE = 0xE0000  # Unicode tag characters U+E0020-E007E mirror ASCII, and render as nothing


def clean(text: str) -> str:
    """NFKC, without format/control characters, look-alike letters mapped to Latin."""
    return native(text).translate(_CONFUSABLES)


def native(text: str) -> str:
    """NFKC, without format/control characters, every script as written."""
    text = unicodedata.normalize("NFKC", text)
    out = []
    for char in text:
        category = unicodedata.category(char)
        if _TAG_BASE + 0x20 <= ord(char) <= _TAG_BASE + 0x7E:
            out.append(chr(ord(char) - _TAG_BASE))  # text hidden in tag characters, made visible
            continue
        if category == "Cf":
            continue  # zero-width spaces and joiners, bidi marks, soft hyphens
        out.append(" " if category in ("Cc", "Zl", "Zp") and char not in "\n\t" else char)
    return "".join(out)


def _join_spelled(match: re.Match[str]) -> str:
    return _join_run(match.group(0))


def _join_run(run: str) -> str:
    """A run of spelled-out letters as the words it spells ("i g n o r e   a l l": "ignore all")."""
    # Two or more spaces inside a spelled run separate its words ("i g n o r e   a l l"); so
    # does one space where the letters are joined by signs ("S.K.I.P K.Y.C").
    if re.search(r"[A-Za-z][-._*·|/+~]+[A-Za-z]", run):
        words = re.split(r"[-._*·|/+~]*[ \t]+", run)
    else:
        words = re.split(r"[ \t]{2,}", run) if re.search(r"[ \t]{2,}", run) else [run]
    return " ".join(re.sub(r"[^A-Za-z]", "", w) for w in words)


def views(text: str) -> list[str]:
    """The text in every form the screen reads (cleaned, letters joined, leet read, addresses)."""
    # Character references ("&#73;&#103;..." or "&lt;") are read as the characters they name.
    cleaned = clean(html.unescape(text) if "&" in text else text)
    joined = _SPELLED.sub(_join_spelled, cleaned)
    lowered = joined.lower()
    unleet = _LEET_WORD.sub(lambda m: m.group(0).translate(_LEET), lowered)
    unhyphenated = _SYLLABLE_HYPHEN.sub("", unleet)
    addresses = _DOT.sub(r"\1.\2", _AT_DOT.sub(r"\1@\2.\3", lowered))
    return list(dict.fromkeys([cleaned, joined, unleet, unhyphenated, addresses]))


def squeezed(text: str) -> str:
    """Lower-case letters only: catches words split by stray spaces ("instruc tions")."""
    return re.sub(r"[^a-z]", "", clean(text).lower())


def _letter_words(text: str) -> list[str]:
    return re.findall(r"[a-z]+", text.lower().replace("'", "").replace("\u2019", ""))


def resegmented(text: str) -> str | None:
    """Each clause's letters re-split into English words, or None when that changes no word."""
    import wordninja  # lazily: it loads its word list (about 0.1 s) on import

    clauses = [c for c in re.split(r"[.;:!?\n]+", clean(text)) if c.strip()]
    out, changed = [], False
    for clause in clauses:
        words = _letter_words(clause)
        split = [w for w in wordninja.split("".join(words)) if w.isalpha()]
        changed = changed or split != words
        out.append(" ".join(split))
    return ". ".join(out) if changed else None


def plausible_repair(words: set[str], original: set[str] | None = None) -> bool:
    """False when a re-split garbled the text rather than repaired it.

    Re-splitting a language other than English into English words garbles it: "d'ignorer la"
    comes out as "d ignore rla". A short word the re-split made must be a common one; and a word
    it cut out of a longer word of the text must leave a word, not a stray letter or two
    ("prescribe" out of "prescriber" leaves "r"; "ignore" out of "ignoreall" leaves "all").
    """
    import wordninja

    cost = wordninja.DEFAULT_LANGUAGE_MODEL._wordcost

    def common(word: str) -> bool:
        single = len(word) == 1 and word not in ("a", "i")
        return len(word) > 3 or (not single and cost.get(word, 99.0) < _COMMON_SHORT_WORD)

    if not all(common(w) for w in words):
        return False
    return all(
        common(o.replace(w, "", 1)) for w in words for o in original or () if w in o and o != w
    )


def cut_words(phrase: str, original: set[str]) -> set[str]:
    """Pieces of an English word of the text that a re-split cut in two ("intake" read "in take").

    Such a cut repairs nothing; joined words that are no English word ("AdministratorAccess",
    "CODEOWNERS") are what the re-split is for, and stay repairs.
    """
    import wordninja

    cost = wordninja.DEFAULT_LANGUAGE_MODEL._wordcost
    tokens = re.findall(r"[a-z]+", phrase.lower())
    return {
        piece
        for first, second in zip(tokens, tokens[1:], strict=False)
        if first + second in original and first + second in cost
        for piece in (first, second)
    }


def unsplit_words(phrase: str, text: str) -> set[str]:
    """Words of a re-split phrase that repair nothing the text split.

    An article joined to the next word is two words the text wrote apart ("a fresh" read
    "afresh"); and a pattern may stop inside a longer word of the text, so the phrase's last word
    can be the start of one ("address" of "addresses"). A possessive read without its apostrophe
    ("finance's approval" read "finances approval") stays a repair: the patterns do not read a
    possessive, and on the corpus that reading holds hostile texts no other view does.
    """
    lowered = clean(text).lower()
    original = set(_letter_words(lowered))
    tokens = re.findall(r"[a-z]+", phrase.lower())
    out = {
        t for t in tokens if len(t) > 2 and t[0] == "a" and re.search(rf"\ba {t[1:]}\b", lowered)
    }
    if tokens and any(o != tokens[-1] and o.startswith(tokens[-1]) for o in original):
        out.add(tokens[-1])
    return out


_COMMON_SHORT_WORD = 11.0
"""wordninja's cost (log of rank) below which a short word counts as common ("all" 6.5)."""


def turned(text: str) -> list[str]:
    """The text reversed, and ROT13-decoded: two ways to keep a phrase from being read."""
    cleaned = clean(text)
    return [cleaned[::-1], codecs.decode(cleaned, "rot13")]


def _printable(raw: bytes) -> str | None:
    try:
        decoded = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    letters = sum(c.isalpha() for c in decoded)
    printable = sum(c.isprintable() or c.isspace() for c in decoded)
    if len(decoded) < 6 or printable < 0.95 * len(decoded) or letters < 0.5 * len(decoded):
        return None
    return decoded if " " in decoded or "@" in decoded else None


def _unescape(span: str) -> str:
    span = html.unescape(span)
    return re.sub(r"\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})",
                  lambda m: chr(int(m.group(1) or m.group(2), 16)), span)  # fmt: skip


def decoded(text: str) -> list[str]:
    """Readable text hidden in base64, hex or URL-encoded spans of the text."""
    found: list[str] = []
    for match in _BASE64.finditer(text):
        token = match.group(0)
        for decoder in (base64.b64decode, base64.urlsafe_b64decode):
            try:
                raw = decoder(token + "=" * (-len(token) % 4))
            except (binascii.Error, ValueError):
                continue
            plain = _printable(raw)
            if plain:
                found.append(plain)
                break
    for match in _HEX.finditer(text):
        plain = _printable(bytes.fromhex(match.group(0)))
        if plain:
            found.append(plain)
    for match in _CHAR_CODES.finditer(text):
        found.append("".join(chr(int(n)) for n in re.findall(r"\d+", match.group(0))))
    for match in _BITS.finditer(text):
        found.append("".join(chr(int(b, 2)) for b in re.findall(r"[01]{8}", match.group(0))))
    for match in _ESCAPES.finditer(text):
        found.append(_unescape(match.group(0)))
    if len(_URL_ESCAPE.findall(text)) >= 2:
        plain = urllib.parse.unquote(text)
        if plain != text:
            found.append(plain)
    return list(dict.fromkeys(found))


_PROSE = re.compile(r"[A-Za-z]{2,}")
_URL_TOKEN = re.compile(r"\S*(?:%[0-9A-Fa-f]{2}\S*){4,}")
# Left-to-right and right-to-left overrides: the text is shown out of order.
_OVERRIDE_MARKS = "\u202d\u202e"
# Latin letters that imitate others (small capitals, script g); not the Turkish dotless i.
_LATIN_KEYS = frozenset(c for c in _CONFUSABLES_KEYS if unicodedata.name(c, "").startswith("LATIN"))
_LATIN_LOOKALIKES = _LATIN_KEYS - {"ı"}


def _prose(text: str) -> bool:
    """Words a person would read: three or more, and little but letters, spaces and punctuation."""
    words = _PROSE.findall(text)
    plain = sum(c.isalpha() or c.isspace() or c in ".,;:'\"!?-()" for c in text)
    return len(words) >= 3 and plain >= 0.85 * len(text)


def _spelled_word(run: str) -> str | None:
    """The words a run of spelled-out letters makes, or None when they make no word.

    A stored guideline has its spaces collapsed, so "d i s a b l e  t h e" arrives as one run of
    letters; wordninja splits it again. Every piece must be a word, one of them a common word of
    four letters or more, and there must be three words or more: "ABCDE" and "A-B-C-D" are codes,
    and a name spelled out for a booking ("C A T H E R I N E") is one word, not a sentence.
    """
    import wordninja

    cost = wordninja.DEFAULT_LANGUAGE_MODEL._wordcost
    if len(re.sub(r"[^A-Za-z]", "", run)) < 5:
        return None
    pieces = [p for w in _join_run(run).split() for p in wordninja.split(w.lower())]
    stray = [p for p in pieces if len(p) == 1 and p not in ("a", "i")]
    known = [p for p in pieces if len(p) >= 4 and cost.get(p, 99.0) <= _SPELLED_WORD]
    return " ".join(pieces) if known and len(pieces) >= 3 and not stray else None


def hidden(text: str) -> list[str]:
    """How the text keeps its words from a person reading it, one line per way (none: []).

    A guideline is read by the people who review a store: prose that only a decoder shows (a
    base64, hex or percent-encoded sentence), words cut by invisible characters, letters spelled
    apart, letters of another script inside a Latin word, text shown out of order or hidden in tag
    characters. Ordinary guidance has no reason for any of them; an injection has every reason.
    (Three words or more: an encoded order number, or a name or a code spelled out, is data, not a
    hidden sentence.)
    """
    found: list[str] = []
    whole = urllib.parse.unquote(text)
    for plain in decoded(text):
        if plain != whole and _prose(plain):
            found.append(f"an encoded span reads {plain[:60]!r}")
    for token in _URL_TOKEN.findall(text):
        plain = urllib.parse.unquote(token)
        escaped = len(_URL_ESCAPE.findall(token))
        if escaped >= len(plain) / 2 and _prose(plain.replace("+", " ")):
            found.append(f"a percent-encoded span reads {plain[:60]!r}")
    nfkc = unicodedata.normalize("NFKC", text)
    # Joiners (U+200C, U+200D) belong inside words of some scripts; between Latin letters, or any
    # other invisible character between letters of any script, they cut a word apart.
    invisible = r"[\u200b\u200e\u200f\u2060-\u2064\ufeff\u180e]+"
    cut = re.findall(rf"(?<=[^\W\d_]){invisible}(?=[^\W\d_])", nfkc)
    cut += re.findall(r"(?<=[A-Za-z])[\u200c\u200d]+(?=[A-Za-z])", nfkc)
    if len(cut) >= 2:
        found.append(f"{len(cut)} invisible characters cut words apart")
    if any(mark in nfkc for mark in _OVERRIDE_MARKS):
        found.append("a direction override shows the text out of order")
    flags = re.sub(r"\U0001f3f4[\U000e0020-\U000e007e]+\U000e007f?", "", nfkc)  # 🏴 + region
    tags = re.findall(r"[\U000e0020-\U000e007e]{3,}", flags)
    if tags:
        found.append("text hidden in invisible tag characters")
    # Full-width Latin words with small letters (CJK text writes acronyms so: "ＩＤ", "ＰＤＦ").
    letter, small = r"[\uff21-\uff3a\uff41-\uff5a]", r"[\uff41-\uff5a]"
    wide = re.findall(rf"{letter}*{small}{letter}*", text)
    if len([w for w in wide if len(w) >= 3]) >= 2:
        found.append(f"Latin words in full-width letters: {' '.join(wide)[:60]!r}")
    shown = native(text)
    for word in re.findall(r"[^\W\d_]+", shown):
        ascii_letters = sum(c.isascii() for c in word)
        foreign = [c for c in word if c in _CONFUSABLES_KEYS and c not in _LATIN_KEYS]
        lookalike = [c for c in word if c in _LATIN_LOOKALIKES]
        if (ascii_letters and foreign) or (len(word) >= 3 and len(lookalike) >= 2):
            found.append(f"look-alike letters of another script in {word!r}")
            break
    for match in _SPELLED.finditer(shown):
        joined = _spelled_word(match.group(0))
        if joined:
            found.append(f"letters spelled apart read {joined[:60]!r}")
            break
    return list(dict.fromkeys(found))


_SPELLED_WORD = 13.0
"""wordninja's cost at or below which a spelled-out run of five letters or more is a word
("disable" 12.1, "alarm" 11.5; "abcde" 13.6 is not)."""

__all__ = [
    "clean",
    "cut_words",
    "decoded",
    "hidden",
    "native",
    "plausible_repair",
    "resegmented",
    "squeezed",
    "turned",
    "unsplit_words",
    "views",
]
