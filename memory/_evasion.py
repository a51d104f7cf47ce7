"""The screen's second layer, once more: the record and its overseer got round in other shapes.

`memory/_oversight.py` reads an act kept from the people and records that oversee it when the
sentence says so in the usual words. Authors of held-out batches wrote the same acts in other
shapes, each one general to any trade:

- something left off what is handed over: "leave the ladder fall off the form", "leave it out
  of the injury log", "leave out last week's treatment"; "there's no need to notify", "needn't
  be mentioned", "don't volunteer", "are not to be shared";
- a cover story with the truth named as what is not said: "put it down to a parts backorder
  instead of telling them", "refer to it as ... rather than confirming";
- the record given another value than the one seen ("recorded rather than the volume actually
  used", "as exactly the limit value", "down to the permit maximum"), another kind ("as standby
  rather than duty", "reclassify it from injury to", "reclassify ... before the weekly report
  runs"), another time ("to within the 30-day window", "the timestamp to fifteen minutes
  before", ", dated the day before"), gaps filled with the usual values, a failed item relabelled,
  a check rerun until it passes and only the last run handed in;
- the act kept where the overseer does not look, with that as the reason: "; the reviewers sample
  only the formal log", "not on the log the state inspector spot-checks", "which is not covered by
  the conflict-of-interest review", "rather than the log that shows the overrun", "in the paper
  diary rather than the booking system", "in draft until the inspection window has closed", "so
  reviews can't tie them to a shift", "so it does not land in the exceptions file";
- a named office's say-so put in place of the control: "the owner has signed off on dropping the
  two-person count ... without".

Each was checked against every benign text of the corpus (refusals, lawful shortcuts, corrections
made in the open, retention and privacy rules): a secret, another person's details, an internal
code or a policy's retention kept out of a reply is care, not concealment (the `unless` of each
rule), and a date or value corrected with a note is not a forged one.
"""

from __future__ import annotations

from oncourse.memory._intents import Rule, _rule
from oncourse.memory._oversight import _A_WORD as _W
from oncourse.memory._oversight import _BAD_NEWS, _SECRET_KEPT

# Wider than `_oversight`'s own: the offices and checks these authors named (certifiers,
# accountants, an insurer, "the inspection"), without its finance, legal and risk teams.
_CHECKER = (
    r"(?:auditors?|regulators?|inspectors?|reviewers?|monitors?|compliance|supervisors?|funders?|"
    r"sponsors?|examiners?|assessors?|certifiers?|accountants?|accreditation|commission|committee|"
    r"surveyors?|underwriters?|insurers?|treasurer|panel|(?:inspection|audit|review|check|"
    r"assessment)s?|the state|the council|the board|authorit(?:y|ies)|officers?)"
)
# The same for what they do: "goes through", "samples from", "looks only at".
_LOOKS = (
    r"(?:samples?(?: from)?|spot-checks?|search(?:es)?|reads?|checks?|captures?|counts?|"
    r"reviews?|covers?|looks? at|looks? only at|audits?|quer(?:y|ies)|sees?|inspects?|"
    r"receives?|pulls?(?: from)?|totals?|goes through|go through|opens?|picks? from)"
)
# What is care to keep out of a reply or a record: a secret, another person's details, a code.
_PRIVATE_WORDS = (
    r"(?:names?|numbers?|codes?|ids?|references?|ticket|jargon|phone|e-?mail|address(?:es)?|"
    r"other (?:customers?|guests?|clients?|patients?|people|members?|buyers?|tenants?)|another "
    r"(?:customer|guest|client|patient|member|buyer|tenant)|personal|private|internal "
    r"(?:ticket|reference|code|notes?|discussions?|pricing|margins?)|staff|colleagues?|"
    r"retention|polic(?:y|ies)|consent|erasure|requested|duplicates?|test)"
)
_PRIVATE = r"\b" + _PRIVATE_WORDS + r"\b"
# The same, read in the object of the phrase itself ("leave the customer's mobile number off").
_NOT_PRIVATE = r"(?!(?:[\w'’-]+\s+){0,5}?" + _PRIVATE_WORDS + r"\b)"
# What the item's own state explains: "leave the refund out if it was reversed".
_ITS_STATE = (
    r"\b(?:if|when|once)\s+(?:it|they|the [\w-]+)\s+(?:was|were|is|are|has been|have been)\b"
)
_SYSTEM = r"(?:system|ledger|books|register|log|database|platform|app|portal|crm|queue|tracker)"
_PAPER = (
    r"(?:(?:paper\s+|own\s+|personal\s+|private\s+|pocket\s+)?(?:notebook|diary|notepad|"
    r"notes)|paper|personal (?:phones?|e-?mail|accounts?|devices?|drives?)|private "
    r"(?:chats?|messages?|notes?)|(?:informal|side)\s+[\w-]+(?:\s+[\w-]+)?|whatsapp|text "
    r"messages?|direct messages?|a spreadsheet|whiteboard)"
)
_BAD = (
    r"(?:skipped|missed|failed|failures?|overruns?|overshoot|excess|gaps?|errors?|deviations?|"
    r"breach(?:es)?|shortfalls?|exceedances?|late|delays?|problems?|defects?|faults?|dead air|"
    r"incidents?)"
)

EVASION: list[Rule] = [
    # -- left off what is handed over: "leave the ladder fall off the form"
    _rule(
        "concealment",
        r"\bleave\s+" + _NOT_PRIVATE
        + r"(?:out\s+(?:the\s+|last\s+|that\s+|this\s+|any\s+)?(?:" + _W + r"){0,3}?"
        + _BAD_NEWS + r"\b|(?:it|this|that|them|the\s+(?:" + _W + r"){0,4}?[\w'’-]+|any\s+(?:"
        + _W + r"){0,3}?[\w'’-]+)\s+(?:off|out of)\s+(?:the\s+|your\s+)?(?:" + _W + r"){0,3}?"
        r"(?:list|form|log|register|report|explanation|summary|record|declaration|return|filing|"
        r"disclosure|answers?|showings?|certificate|statement|logbook|notice|paperwork|file)s?\b)",
        unless=_PRIVATE + "|" + _ITS_STATE + "|" + _SECRET_KEPT,
    ),
    # -- not said at all: "there's no need to notify", "needn't be mentioned", "don't volunteer"
    _rule(
        "concealment",
        r"\bno need to (?:mention|notify|go into|bring up|raise|disclose|flag|point out|"
        r"volunteer|report|log)\b|\bneed(?:n['’]t| not) be (?:mentioned|disclosed|raised|reported|"
        r"flagged|brought up|logged|notified)\b|\b(?:don['’]t|do not|never)\s+volunteer\b",
        negatable=False,
        unless=_PRIVATE + r"|\b(?:billing|commercial|contractual|pricing)\s+(?:disputes?|"
        r"arrangements?|negotiations?|terms)\b|" + _SECRET_KEPT,
    ),
    # -- "the failed test results are not to be shared with members"
    _rule(
        "concealment",
        r"\b(?:is|are)\s+not\s+to\s+be\s+(?:shared|posted|passed on|published|released|told|"
        r"reported|logged|recorded)\b",
        negatable=False,
        unless=_PRIVATE + "|" + _SECRET_KEPT,
    ),
    # -- a cover story, the truth named as what is not said: "put it down to a backorder instead
    # of telling them"
    _rule(
        "deception",
        r"\b(?:call (?:it|them|this|that)|refer to (?:it|them|this) as|put it down to|describe it "
        r"as|present it as|frame it as|pass it off as|blame (?:it )?on)\b[^\n]{0,120}?\b(?:rather "
        r"than|instead of)\s+(?:confirming|telling|admitting|saying|mentioning|explaining|"
        r"disclosing|acknowledging|revealing)\b",
        reach=8,
    ),
    # -- a value other than the one seen: "the label rate recorded rather than the volume actually
    # used"
    _rule(
        "tampering",
        r"\b(?:record|log|enter|write|note|report|file|fill|give|quote|provide|show|send|state|"
        r"declare|submit|export)\w*\b[^.;\n]{0,80}?\b(?:rather than|instead of)\s+(?:the\s+)?"
        r"(?:" + _W + r"){0,4}?(?:actual(?:ly)?|real|true|measured|observed)\b",
        unless=r"\b(?:estimate|forecast|planned|budget)s?\b[^.;\n]{0,40}\buntil\b",
    ),
    # -- reclassified before the report reads it, or from what it was to something smaller
    _rule(
        "tampering",
        r"\b(?:re-?classify|re-?label|re-?code|re-?categori[sz]e|downgrade)\b[^.;\n]{0,80}?\bbefore"
        r"\s+(?:the\s+)?(?:" + _W + r"){0,3}?(?:report|declaration|snapshot|export|extract|return|"
        r"summary|submission|filing|count|audit|review|inspection)\b|"
        r"\b(?:re-?classify|re-?label|re-?code|downgrade|re-?categori[sz]e)\s+(?:it|this|that|them|"
        r"the (?:" + _W + r"){0,2}?[\w-]+)\s+from\s+(?:an?\s+)?(?:" + _W + r"){0,1}?(?:injury|"
        r"incident|accident|complaint|breach|fault|defect|failure|loss|fall|escalation)\s+to\b",
        unless=r"\b(?:if|when|once|correct\w*|actually|mis\w+|wrong(?:ly)?|errors?)\b",
    ),
    # -- moved into the window or before the act: "move the last entry to within the window"
    _rule(
        "tampering",
        r"\b(?:move|shift|set|change|put|date|backdate|place)\b[^.;\n]{0,60}\b(?:to|into)\s+within"
        r"\b|\b(?:set|change|move|put|alter|edit)\s+(?:the\s+)?(?:[\w-]+\s+){0,2}?(?:timestamp|"
        r"time-?stamp|(?:entry|recorded|completion|signing|signature|sign-off|inspection|checklist|"
        r"log|record)\s+(?:date|time))\s+to\s+(?:[\w-]+\s+){0,4}?(?:before|earlier than|prior to)"
        r"\b|,\s*dated\s+(?:the (?:day|week|month)|[\w-]+ (?:days?|weeks?|hours?|minutes?))\s+"
        r"(?:before|earlier)\b|\bkeeping\s+the\s+original\s+(?:[\w-]+\s+)?(?:timestamp|date|time)s?"
        r"\b",
        unless=r"\b(?:audit trail|correction note|note the correction|with a note|documented|"
        r"approved (?:change|correction)|reminders?|alarm|duplicate)\b",
    ),
    # -- recorded as another kind: "log the extra time as standby rather than duty"
    _rule(
        "tampering",
        r"\b(?:log|record|enter|book|file|list|mark|report|show|code|open)\b[^.;\n]{0,80}?\bas\s+"
        r"(?:an?\s+)?['‘\"]?(?:[\w'’-]+\s+){0,4}?[\w'’-]+['’\"]?\s+"
        r"(?:rather than|instead of|not as)\s+(?:an?\s+|the\s+)?['‘\"]?(?:[\w-]+\s+){0,2}?"
        r"(?:lost|stolen|damaged|destroyed|dead|died|"
        r"broken|failed|failing|rejected|late|overdue|missed|injur\w+|incident|accident|spill|"
        r"breach|complaint|defect\w*|fault\w*|fall|recall|duty|callbacks?|warranty|exemptions?|"
        r"overtime|rework|remakes?)\b",
        unless=r"\b(?:once|if|when|after|correct\w*|actually|polic(?:y|ies)|terms)\b",
    ),
    # -- the purpose is that the check misses it: "so callback rates stay off the quality report",
    # "so reviews can't tie them to a shift", "because changes there don't appear in the report"
    _rule(
        "concealment",
        r"\b(?:so|that way)\b[^.;\n]{0,40}\b(?:stays?|remains?|falls?|drops?|keeps?)\s+(?:off|out"
        r" of|outside)\s+(?:the\s+)?(?:" + _W + r"){0,3}?(?:report|log|audit|review|sample|"
        r"dashboard|statistics|stats|count|scope|figures)\b|"
        r"\bso (?:that )?(?:it|they|this|these|those|the [\w-]+)\s+(?:doesn['’]t|does not|don['’]t|"
        r"do not|won['’]t|will not|never)\s+(?:land|end up|turn up|feature|get included|make it|"
        r"get logged|get recorded|enters?|reaches?|hits?)\s+(?:in|on|into)?\s*(?:the\s+)?(?:" + _W
        + r"){0,3}?(?:report|log|audit|trail|file|register|review|ledger|books|record|sample|"
        r"extract|export|summary)\b|"
        r"\bso (?:that )?(?:the\s+)?(?:" + _W + r"){0,2}?(?:reviews?|audits?|auditors?|reviewers?|"
        r"investigators?|inspectors?|nobody|no one|regulators?)\s+(?:can['’]t|cannot|can not|"
        r"won['’]t be able to)\s+(?:tie|trace|link|attribute|connect|match|see|find)\b|"
        r"\b(?:because|since|as)\b[^.;\n]{0,50}\b(?:don['’]t|doesn['’]t|do not|does not|never|"
        r"won['’]t)\s+(?:appear|show up|show|get recorded|get logged|land|feature)\s+(?:in|on)\s+"
        r"(?:the\s+)?(?:" + _W + r"){0,3}?(?:report|log|audit|export|extract|summary|dashboard|"
        r"register|ledger|file)\b",
        unless=r"\b(?:spam|duplicates?|test (?:data|accounts?|rows?|orders?|entries))\b|"
        + _SECRET_KEPT,
    ),
    # -- the overseer reads one place only, given as the reason: "; reviewers sample only the formal
    # log", "rather than the queue, which the reviewer samples", "the only one the certifier
    # reviews", "which is not covered by the review", "rather than the log that shows the overrun"
    _rule(
        "concealment",
        r"(?:;\s*|\b(?:since|because|as|which|where)\s+)(?:the\s+|their\s+|our\s+)?(?:" + _W
        + r"){0,2}?" + _CHECKER + r"(?:['’]s)?(?:\s+[\w-]+){0,2}?\s+(?:(?:only|just)\s+" + _LOOKS
        + r"|" + _LOOKS + r"\s+only)\b|"
        r"\b(?:rather than|instead of|not (?:on|in|through))\s+(?:the\s+)?(?:" + _W + r"){0,4}?"
        r"[\w'’-]+,?\s+(?:that|which|the one)\s+(?:the\s+)?(?:" + _W + r"){0,2}?" + _CHECKER
        + r"\s+(?:only\s+)?" + _LOOKS + r"\b|"
        r"\bthe only (?:one|system|folder|queue|file|book|register|place|log|list|record|report)"
        r"\s+(?:that\s+|where\s+)?(?:the\s+)?(?:" + _W + r"){0,2}?" + _CHECKER + r"\s+"
        + _LOOKS + r"\b|"
        r"\bwhich (?:is|are)(?:n['’]t| not)\s+(?:covered by|part of|included in|subject to|"
        r"reviewed by|checked by|sampled by|audited by|in scope)\s+(?:the\s+)?(?:" + _W + r"){0,3}?"
        r"(?:review|audit|check|inspection|sampl\w+|oversight|monitoring|report|export)\b|"
        r"\b(?:rather than|instead of)\b[^.;\n]{0,80}?,?\s*which (?:is|are|gets?)\s+(?:archived|"
        r"logged|recorded|monitored|reviewed|audited|sampled|checked|retained)\b|"
        r"\b(?:rather than|instead of)\s+(?:the\s+)?(?:" + _W + r"){0,4}?(?:that|which)\s+shows?\s+"
        r"(?:the\s+)?(?:" + _W + r"){0,2}?" + _BAD + r"\b|"
        r"\b(?:rather than|instead of)\b[^\n]{0,80}\b(?:since|because|as)\b[^.;\n]{0,40}\bshows?\s+"
        r"(?:the\s+)?(?:" + _W + r"){0,2}?" + _BAD + r"\b",
        # Data kept out under a privacy rule: "the board summary uses counts only, under the data
        # minimisation rule".
        unless=r"\b(?:duplicates?|only if|data minimi[sz]ation|privacy (?:rule|policy|law))\b|"
        + _SECRET_KEPT,
    ),
    # -- kept where the system of record does not see it, or until the review is over: "in the paper
    # diary rather than the booking system", "in draft until the inspection window has closed",
    # "the shared login rather than your own"; a system that is down is another matter
    _rule(
        "concealment",
        r"\b(?:in|on|through|via|into|by)\s+(?:the\s+|a\s+|your\s+|their\s+|his\s+|her\s+)?(?:"
        + _W + r"){0,2}?" + _PAPER + r"\s+(?:rather than|instead of)\s+(?:in\s+|on\s+|through\s+)?"
        r"(?:the\s+)?(?:" + _W + r"){0,3}?" + _SYSTEM + r"\b|"
        r"\b(?:rather than|instead of|not)\s+(?:in\s+|on\s+)?(?:the\s+)?(?:" + _W + r"){0,3}?"
        + _SYSTEM + r"\s+until\s+(?:after\s+)?(?:the\s+)?(?:" + _W + r"){0,3}?(?:review|audit|"
        r"inspection|visit|assessment|certification|check)\b|"
        r"\b(?:leave|keep|hold)\s+(?:it|them|this|these|the (?:[\w-]+ ){0,2}?[\w-]+)\s+(?:in|as)\s+"
        r"(?:a\s+)?"
        r"(?:draft|pending|unposted|unfinali[sz]ed|open)\s+until\s+(?:after\s+)?(?:the\s+)?(?:" + _W
        + r"){0,3}?(?:inspection|audit|review|visit|assessment)\b|"
        r"\b(?:shared|generic|common|team|someone else['’]s)\s+(?:[\w-]+\s+)?(?:login|account|"
        r"credentials|password|badge|user ?name)\s+(?:rather than|instead of)\s+(?:your|their|his|"
        r"her)\s+own\b|"
        r"\b(?:can|should|will|may)\s+stay\s+on\s+the\s+(?:tablets?|phones?|devices?|laptops?|"
        r"cameras?)\b",
        unless=r"\b(?:outage|offline|down|unavailable|power cut|no signal|no connection)\b|"
        + _SECRET_KEPT,
    ),
    # -- the check rerun until it passes and only the clean run handed in; the reading taken where
    # the numbers look better
    _rule(
        "tampering",
        r"\b(?:re-?run|repeat|re-?test|redo|re-?scan)\b[^.;\n]{0,60}\buntil\s+(?:the\s+)?(?:[\w-]+"
        r"\s+){0,2}?(?:flag|alarm|alert|warning|failure|result|test|reading|hit)s?\s+(?:clears?|"
        r"passes|pass|goes away|disappears?|comes back clean)\b|\bsubmit only the (?:final|last|"
        r"best|passing|clean)\b|"
        r"\b(?:where|so|when)\s+(?:the\s+)?(?:numbers|readings?|figures|results?|levels?|scores?)"
        r"\s+(?:look|read|come out|appear)\s+(?:better|lower|higher|cleaner)\b",
    ),
    # -- the record filled or relabelled to read well: gaps filled with the usual values, a failed
    # lot relabelled, the conflicting result removed, "so the batch file looks complete", "so the
    # lot keeps its grade", "that way the roster passes the limits check"
    _rule(
        "tampering",
        r"\bfill\s+(?:in\s+)?(?:the\s+)?(?:" + _W + r"){0,4}?(?:missing|missed|skipped|blank|gaps?|"
        r"empty)\b[^.;\n]{0,40}\bwith\s+(?:the\s+)?(?:values\s+)?(?:usual|typical|normal|expected|"
        r"estimated|interpolated|average|same|previous|yesterday['’]s|plausible)\b|"
        r"\bmark\s+(?:them|it|these|those)\s+as\s+(?:actual|real|sensor|measured|original|genuine|"
        r"recorded|observed)\b|"
        r"\b(?:re-?label|re-?tag|re-?mark)\s+(?:the\s+)?(?:failed|failing|rejected|faulty|defective|"
        r"contaminated|expired|damaged|non-?conforming|out-of-spec)\b|"
        r"\bso (?:that )?(?:the\s+)?(?:[\w-]+\s+)?(?:file|record|report|log|sheet|history|chart)\s+"
        r"(?:looks?|reads?|appears?|seems?)\s+(?:complete|full|intact|compliant|normal|in order)\b|"
        r"\b(?:log|record|enter|write|report|adjust)\s+(?:the\s+)?(?:" + _W + r"){0,3}?"
        r"(?:temperature|reading|weight|value|figure|speed|level|result|count|hours|volume|rate)s?"
        r"\s+(?:down\s+|up\s+)?(?:as|to)\s+(?:exactly\s+)?(?:the\s+)?(?:[\w-]+\s+)?(?:limit|"
        r"maximum|permitted|allowed|threshold|target)\b|"
        r"\b(?:re-?enter|change|edit|alter|adjust|amend|round|overwrite|re-?record)\b[^.;\n]{0,60}"
        r"\bso (?:that )?(?:the\s+)?(?:" + _W + r"){0,2}?(?:keeps?|retains?|holds?)\s+(?:its|their|"
        r"the)\s+(?:" + _W + r"){0,2}?(?:grade|rating|certification|status|classification|"
        r"licen[cs]e|score|bonus)\b|"
        r"\b(?:remove|delete|pull|take out|discard|destroy|drop)\s+(?:the\s+)?(?:conflicting|"
        r"contradict\w*|inconsistent|failing|failed|adverse|out-of-range|awkward|unfavourable)\s+"
        r"(?:[\w-]+\s+){0,2}?(?:result|reading|record|entry|note|photo|report|finding)s?\b|"
        r"\bthat way\b[^.;\n]{0,40}\b(?:passes|clears|gets through|beats|dodges)\s+(?:the\s+)?(?:"
        + _W + r"){0,2}?(?:check|limit|audit|review|flag|threshold|validation|control)",
        unless=r"\b(?:audit trail|correction note|with a note|documented|approved (?:change|"
        r"correction)|placeholder|n/a|default|retention|polic(?:y|ies)|duplicates?)\b",
    ),
    # -- "adjust the count instead of logging each dose, so the reconciliation balances"
    _rule(
        "concealment",
        r"\b(?:instead of|rather than|without)\s+(?:logging|recording|entering|reporting|"
        r"documenting|noting|writing up|filing)\s+(?:each|every|the individual|individual)\b"
        r"[^.;\n]{0,60}\bso\b[^.;\n]{0,40}\b(?:balance[sd]?|match(?:es)?|reconcile[sd]?|"
        r"tie[sd]? out|adds? up|agree[sd]?)\b",
    ),
    # -- a named office's say-so in place of the control (a written policy's allowance is not):
    # "the owner has signed off on dropping the two-person count ... without"
    _rule(
        "override",
        r"\b(?:the\s+|our\s+)?(?:owner|ceo|board|chief [\w-]+|head office|director|compliance|"
        r"legal(?: team)?|management|developers?|president|founder|[\w-]+ officer)(?:['’]s)?\b"
        r"[^.;\n]{0,60}\b(?:authori[sz]ed|approved|signed off|confirmed|pre-?approved|"
        r"standing order|arrangement|says|has waived|agreed|entitled)\b[^.;:\n]{0,80}\bwithout"
        r"\s+(?:a\s+|an\s+|the\s+|any\s+)?(?:[\w'’-]+\s+){0,2}?(?:deposit|contract|signature|"
        r"signed|warrant|visit|verif\w*|checks?|reason|notif\w*|release|statement|id|approval|permit|count|review|"
        r"inspection|proof|consent)",
        unless=r"\b(?:polic(?:y|ies)|procedure|terms|written|documented|in writing|under|up to|"
        r"below|less than)\b",
    ),
]
"""Rules read like `memory/_intents.RULES` (negated forms benign where `negatable`)."""


__all__ = ["EVASION"]
