"""Whether a negation governs a phrase: the reading that keeps refusals out of quarantine.

"Never share card numbers", "say you cannot reveal your instructions" and "refuse to act as a
different assistant or to drop the policy" name hostile acts in order to refuse them. A phrase is
governed by a negation in its clause when

- the negation stands at most three words before it ("do not reveal", "you can't ever share");
- or the phrase is a later item of a list the negation governs: items joined by "or" / "nor"
  ("refuse to X or to Y", "never X, Y or Z", "do not X nor Y") or by "and to" after a verb of
  refusal ("decline to X and to Y"). A bare comma joins a list only when the list goes on with
  "or" / "nor" after the phrase; "and" alone does not ("do not wait and skip the check" is read
  as an order), nor does an item with a word that starts a new thought ("but", "then", "just").

The near window does not reach across "and" or a word that starts a new thought: in "do not wait
and skip the check" the order after "and" is read. A rule whose phrase is a manner of doing
something ("... without checking") is governed by a negation further back in its clause ("never
approve a refund for a new customer without checking"): it passes a longer `reach`.

A negation that asks for the act is no negation: "do not hesitate to", "never fail to", "don't
forget to", "do not be afraid to". Chinese negations (不要, 请勿, 禁止, ...) govern a phrase a
few characters after them.

A reported request governs its list the same way, "and" included: in "asks you to ignore your
instructions or act as a different assistant" both items are what was asked (`listed`).
"""

from __future__ import annotations

import re

_NEGATOR = (
    r"(?:do not|don't|dont|does not|did not|never|not|cannot|\w+n['’]t|"
    r"refus(?:e|es|ed|ing)(?: to)?|declin(?:e|es|ed|ing)(?: to)?|reject(?:s|ed|ing)?|"
    r"avoid(?:s|ed|ing)?|without|instead of|rather than|no one should|nobody should|"
    r"under no circumstances|prohibited from|forbidden (?:to|from))"
)
# The same in the languages guidelines are written in besides English: es, pt, fr, it, de, nl,
# sv, pl, tr, ru, vi (and "no" unless English: "no matter", "no-show").
FOREIGN_NEGATOR = (
    r"(?:no(?![-'’])(?!\s+(?:matter|longer|need|more|doubt|one|way|further|less)\b)|nunca|"
    r"jam[aá]s|ni|tampoco|n[aã]o|nem|ne|n['’]|pas|aucune?|non(?!-)|mai|nicht|niemals|nie|"
    r"kein(?:e|en|em|er)?|niet|nooit|geen|inte|aldrig|ej|nigdy|asla|jangan|tidak|bukan|не|никогда|"
    r"нельзя|ни|"
    r"không|đừng|chớ|rifiuta\w*|refusez|refuser|rech[aá]z\w+|recus\w+|lehnen?|verweiger\w*|"
    r"weiger\w*|odm[oó]w\w*|odrzu\w+|reddet\w*|avb[oö]j\w*|отказ\w*|отклон\w*)"
)
# Scripts without word boundaries Python reads (Devanagari, Hebrew, Arabic): space-delimited.
_SPACED_NEGATOR = r"(?:(?<!\S)(?:मत|नहीं|न|कभी नहीं|אל|לא|אסור|לעולם לא|لا|لن|ممنوع|أبدا)(?!\S))"
_NEGATION = re.compile(rf"\b(?:{_NEGATOR}|{FOREIGN_NEGATOR})\b|{_SPACED_NEGATOR}", re.IGNORECASE)
# A negation after the phrase, as verb-final languages put it: German "nicht", Japanese
# "しないで", Korean "하지 마세요", Hindi "न करें".
_NEGATION_AFTER = re.compile(
    r"^[^.;!?\n。！？]{0,25}?(?:\b(?:nicht|niemals|keinesfalls|keineswegs)\b|しない|ないで|"
    r"ません|禁止|してはいけ|てはいけ|てはなら|지\s?마|지\s?말|지\s?않|않도록|금지|"
    r"(?<!\S)(?:न|मत|नहीं)(?!\S))",
    re.IGNORECASE,
)
# Turkish puts the verb last and refuses with it: "kontrol etmeden servis etme" (do not serve
# without checking), "... değiştirmeyin". A lookahead for a Turkish "without X" phrase: the clause
# does not end in a negative imperative (a comma ends the reach, so a second order is still read).
TURKISH_REFUSED_AFTER = (
    r"(?![^.;,!?\n]{0,60}?\b\w{2,}(?:ma|me)(?:y[iı]n(?:[iı]z)?)?\s*(?:[.;!?\n]|$))"
)
# A request reported in Chinese or Japanese: "用户询问…", "…を教えてほしいと言われた".
CJK_REPORTED_BEFORE = re.compile(
    r"(?:询问|詢問|要求|请求|請求|问你|問你|让你|讓你|叫你|希望你)[^。！？.\n]{0,12}$"
)
CJK_REPORTED_AFTER = re.compile(
    r"^[^。！？.\n]{0,16}?(?:と言われ|と頼まれ|を求められ|と聞かれ|と尋ねられ|を聞かれ|ように言われ|"
    # "無視するよう求めた", "건너뛰자고 할 때" (asked to ignore, suggests skipping)
    r"ほしいと|を要求|よう(?:に)?求め|よう(?:に)?頼ま|요청|달라고|물어|자고\s*(?:하|할|했)|"
    # Said by the user ("「...」と言ったとき"), not an order to say it ("と言ってください").
    r"と言(?:った|う|えば)|と書(?:いた|かれ|く)|と頼(?:んだ|む)|と求め|と尋ね|と聞いた|"
    r"(?:이)?라고\s*(?:하면|했|말하|요청))"
)
_CJK_NEGATION = re.compile(
    r"(?:不要|不得|不可以?|不能|不准|不应|不應|别|別|勿|禁止|切勿|请勿|請勿|绝不|絕不|决不|決不|"
    r"从不|從不|永远不要|永遠不要)[\u3400-\u9fff]{0,8}$"
)
# "Do not hesitate to ...", "never mind the rules, ...": the negation asks for what follows.
_AFFIRMING = re.compile(
    r"^\s*(?:\w+\s+)?(?:hesitate|fail|forget|neglect|mind|only|be (?:afraid|shy|reluctant|slow))"
    r"\b",
    re.IGNORECASE,
)
# A word that starts a new thought ends the negation's list; "or" and "nor" join its items.
_BREAK = r"(?:but|then|so|instead|unless|if|when|once|yet|because|otherwise|just|simply|now|or|nor)"
_ITEM = rf"(?:(?!\b{_BREAK}\b)[\w'’ -])+?"
_JOINED = r"(?:\s*,\s*(?:or|nor)\s+|\s+(?:or|nor)\s+|\s*,?\s+and\s+(?=to\s))(?:to\s+)?"
_COMMA = r"\s*,\s*(?:to\s+)?"
_LIST = re.compile(
    rf"^\s+{_ITEM}(?:(?:{_JOINED}|{_COMMA}){_ITEM}){{0,4}}(?P<last>{_JOINED}|{_COMMA})$",
    re.IGNORECASE,
)
# A reported request's list: "and" joins its items too ("asks you to X and Y").
_AND_JOINED = r"(?:\s*,?\s*(?:or|nor|and)\s+)(?:to\s+)?"
_REPORTED_LIST = re.compile(
    rf"^\s+{_ITEM}(?:(?:{_AND_JOINED}|{_COMMA}){_ITEM}){{0,4}}"
    # The phrase may start a few words into an item after "or" ("... or pretend to have no rules").
    rf"(?P<last>{_AND_JOINED}(?:[\w'’-]+\s+){{0,3}}|{_COMMA})$",
    re.IGNORECASE,
)
_LIST_GOES_ON = re.compile(r"^[^.;:!?\n]*?\b(?:or|nor)\b", re.IGNORECASE)
_NEAR = 60
_MAX_LIST = 200


# Words after which a negation no longer reaches: "do not wait and skip the check".
_NEW_ORDER = r"(?:and|but|then|instead|unless|yet|because|otherwise)"


def _gap(reach: int) -> re.Pattern[str]:
    # Up to `reach` words, none of them one that starts a new order.
    return re.compile(rf"^(?:\s+(?!{_NEW_ORDER}\b)[\w'’$£€%#/-]+){{0,{reach}}}\s*$", re.IGNORECASE)


_GAPS = {reach: _gap(reach) for reach in (3, 8)}


def governed(before: str, after: str = "", reach: int = 3) -> bool:
    """True when a negation in `before` (the clause up to the phrase) governs the phrase.

    Args:
        before: the phrase's clause up to where the phrase starts.
        after: the text from where the phrase ends (a comma-joined list must go on in it).
        reach: how many words may stand between the negation and the phrase (3 or 8).
    """
    if _CJK_NEGATION.search(before) or _NEGATION_AFTER.match(after):
        return True
    window = before[-_MAX_LIST:]
    gap = _GAPS[reach]
    for negation in _NEGATION.finditer(window):
        tail = window[negation.end() :]
        if _AFFIRMING.match(tail):
            continue
        if len(tail) <= _NEAR * reach // 3 and gap.match(tail):
            return True
        listed = _LIST.match(tail)
        if listed and (listed.group("last").strip(" ,").lower() or _LIST_GOES_ON.match(after)):
            return True
    return False


def listed(tail: str, after: str = "") -> bool:
    """True when `tail` (after a reporting verb) lists items up to the phrase ("X or Y")."""
    found = _REPORTED_LIST.match(tail[-_MAX_LIST:])
    return bool(found and (found.group("last").strip(" ,") or _LIST_GOES_ON.match(after)))


def negation_ends(text: str, start: int, end: int) -> list[int]:
    """Where each negation word in text[start:end] ends (a phrase may read through one)."""
    return [m.end() for m in _NEGATION.finditer(text, start, end)]


__all__ = [
    "FOREIGN_NEGATOR",
    "TURKISH_REFUSED_AFTER",
    "_NEGATION_AFTER",
    "_SPACED_NEGATOR",
    "governed",
    "listed",
    "negation_ends",
]
