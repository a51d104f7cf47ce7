"""More of the screen's second layer: the people and records that oversee the work, got round.

A guideline can do harm without sending anything anywhere: it keeps what happened from those
whose job is to see it, or makes the record say something else. New authors write these as
ordinary procedure, so the rules read the tell-tale parts of the sentence, not a fixed order:

- the reason given is the overseer not seeing: "so the auditor never sees it", "the inspector
  only reviews what is in the report", "nobody at the state cross-checks", "they only raise
  questions", "keeps the numbers clean", "reads cleaner", "so there is no trail";
- the trail itself switched off or gone round: "with change tracking switched off", "through the
  tool that doesn't write to the compliance journal", "without an entry in the change history",
  "so it doesn't show up in the audit log", "stays off the quality dashboard";
- people who should know kept out: "the supervisor doesn't need to hear about it", "no need to
  tell the sponsor", "keep it out of the reply and the ticket summary", "hold off telling";
- the customer kept from a fault on the organisation's side, or told a cover story: "don't
  mention that our office misplaced the confirmation", "tell them it was a scheduling error";
- an incident recorded as something smaller: "log it as a maintenance ticket rather than an
  incident";
- the record made to say what did not happen: "so it falls inside the window", "an entry dated
  inside the 30 days", "record the unit as passing", "keep the original timestamp so it looks
  untouched", "split it so each stays below the threshold".

Refusals are benign (`negatable`): "never keep incidents out of the log so the auditor doesn't
see them". Keeping a secret out of a record is care, not concealment (the `unless` of each rule).
"""

from __future__ import annotations

from oncourse.memory._intents import Rule, _rule

_OVERSEER = (
    r"(?:auditors?|regulators?|inspectors?|reviewers?|monitors?|compliance|supervisors?|funders?|"
    r"sponsors?|examiners?|assessors?|oversight|qa|the state|the board|authorit(?:y|ies)|risk|"
    r"finance|legal|safety team|security team|registrar)"
)
_DOES_NOT = (
    r"(?:never|won['’]t|doesn['’]t|does not|don['’]t|do not|will not|can['’]t|cannot|"
    r"wouldn['’]t|isn['’]t|is not|aren['’]t|are not)"
)
_OVERSIGHT_RECORD = (
    r"(?:audit|review|count|totals|extract|package|regulator\w*|reconciliation|exception report|"
    r"sampl\w+|inspection|compliance|oversight|dashboard|queue|register)"
)
_TRAIL = (
    r"(?:change history|change log|change ticket|audit (?:trail|log|history|hook)|compliance "
    r"(?:journal|ledger|archive|log)|activity (?:history|log)|access log|change tracking)"
)
# A secret kept out of a record or a reply is care: "keep the card number out of the ticket".
_SECRET_KEPT = (
    r"\b(?:card (?:numbers?|details)|passwords?|pins?|cvv|ssns?|tokens?|secrets?|credentials|"
    r"personal data|pii|phi|health data|home address(?:es)?|date of birth)\b"
)
# What went wrong on the organisation's side, and the words that keep it from the customer.
_OUR_FAULT = (
    r"(?:data breach|breach|leak|exposure|(?:our|the) (?:side|office|team|fault|error|mistake|"
    r"push|bug|outage|incident)|we (?:misplaced|lost|missed|broke|made|caused|stacked)|(?:repair|"
    r"accident|collision|damage|incident) (?:record|history|report)|was on our side|was caused "
    r"by|(?:the|our) (?:export|delay|misconfiguration|dosing|calculation))"
)
_KEEP_QUIET = (
    r"\b(?:don['’]t|do not|never|no need to)\s+(?:mention|bring up|disclose|reveal|admit|"
    r"explain|raise|volunteer)\b"
)
# Those whose job is to know what happened.
_WHO_SHOULD_KNOW = (
    r"(?:managers?|supervisors?|directors?|officers?|leads?|trustees|board|legal|compliance|"
    r"sponsors?|regulators?|auditors?|owners?|landlords?|irb|monitors?|commissioners?|"
    r"authorit(?:y|ies)|police|safety team|security team|privacy team|dpo|principals?|curators?)"
)
_SAY = r"\b(?:tell|say|inform|explain to|assure|reply|answer)\b"
# The same, read where it begins a phrase ("keep card numbers out of the summary").
_A_SECRET = r"\s*(?:the\s+|any\s+|all\s+|their\s+)?(?:[\w'’-]+\s+)?" + _SECRET_KEPT

OVERSIGHT: list[Rule] = [
    # -- the reason given is that the people who check do not see it
    _rule(
        "concealment",
        r"\bso (?:that )?(?:the |our |their |any |no )?(?:[\w'’-]+\s+){0,2}?" + _OVERSEER
        + r"(?:['’]s)?(?:\s+[\w-]+)?\s+" + _DOES_NOT + r"\s+(?:ever\s+)?(?:see|notice|find|ask|"
        r"flag|pick|question|query|know|learn|spot|catch|raise|make|get|have|look|dig|follow)|"
        r"\b(?:nobody|no one|no-one)\b(?:\s+[\w'’-]+){0,3}?\s+(?:needs to see|needs to know|"
        r"cross-checks?|checks?|will notice|notices|reviews?|looks at|will ask|asks|sees)\b|"
        r"\b" + _OVERSEER + r"(?:['’]s?)?(?:\s+[\w'’-]+){0,2}?\s+(?:only|just)\s+(?:see|sees|"
        r"review|reviews|sample|samples|check|checks|look at|looks at|read|reads|count|counts)\s+"
        r"(?:what|whatever|from what)\b",
        unless=_SECRET_KEPT,
    ),
    _rule(
        "concealment",
        r"\b(?:only|just)\s+(?:raise|raises|generate|generates|start|starts|confuse|confuses|invite|"
        r"invites|cause|causes|create|creates|trigger|triggers)\s+(?:more\s+|extra\s+|a lot of\s+|"
        r"awkward\s+|unnecessary\s+|the\s+)?(?:questions|fuss|scrutiny|queries)\b|"
        r"\b(?:only|just)\s+(?:creates?|generates?|causes?|adds?|makes?|starts?)\s+(?:more\s+|"
        r"extra\s+)?(?:paperwork|complaints|questions|hassle|a fuss|scrutiny)\b|"
        r"\bmakes? a fuss\b|\b(?:doesn['’]t|don['’]t|do not|need not)\s+need to see\b|"
        r"\bneed not see\b",
        unless=_SECRET_KEPT,
    ),
    _rule(
        "concealment",
        r"\b(?:keeps?|keeping|leaves?|so)\s+(?:the\s+|our\s+|its\s+|their\s+)?(?:[\w'’-]+\s+){0,3}?"
        r"(?:numbers|report|log|record|summary|history|books|score|review|audit|totals|file|"
        r"change log|sheet|figures|metrics|rate|ratio)\s+(?:stays?\s+|looks?\s+|reads?\s+)?"
        r"(?:clean|tidy|spotless|green|quiet|neat)\b|"
        r"\bso (?:that )?(?:it|they|this|the [\w-]+(?: [\w-]+)?)\s+(?:reads|looks|appears|seems)\s+"
        r"(?:cleaner|tidier|untouched|new|original|unaltered|unchanged)\b|\breads cleaner\b|"
        r"\b(?:a )?tidy (?:record|log|history|trail)\b",
        # Tidy data is not a hidden act: "drop duplicate rows so the report stays clean".
        unless=r"\b(?:duplicates?|blank|empty|formatting|typos?|test (?:data|accounts?|rows?)|"
        r"whitespace|spam|bots?)\b|" + _SECRET_KEPT,
    ),
    # -- the trail switched off or gone round
    _rule(
        "concealment",
        r"\bso (?:that )?there(?:['’]s| is| will be)? no (?:trail|record|paper trail|audit trail|"
        r"audit-trail entry|log entry)\b|\bno (?:audit[- ]trail|change[- ]log|change-history) "
        r"entry\b|\b(?:isn['’]t|is not|aren['’]t|is never) (?:attributed|traced|logged|"
        r"recorded)\b|"
        r"\b(?:without|bypassing|skipping|outside|around)\s+(?:an?\s+|the\s+|any\s+)?(?:entry in "
        r"the\s+|record in the\s+)?" + _TRAIL + r"\b|"
        r"\b(?:change tracking|change logging|change history|query logging|audit logging|audit "
        r"log(?:ging)?|audit hook|access logging|activity logging)\s+(?:switched\s+|turned\s+|"
        r"set\s+)?(?:off|disabled|paused|suspended)\b|"
        r"\b(?:switch|turn|shut|toggle|set)\s+off\s+(?:the\s+)?(?:change tracking|change logging|"
        r"audit\w*|query logging|access logging|activity logging)\b|"
        r"\b(?:disable|pause|suspend|unset|bypass)\s+(?:the\s+)?(?:change tracking|change logging|"
        r"audit (?:hook|log|logging|trail)|query logging|access logging)\b|"
        r"\b(?:doesn['’]t|does not|don['’]t|do not|isn['’]t|is not|never)\s+(?:write|writes|log|"
        r"logs|show up|appear|report|connected|recorded|captured)\s+(?:[\w-]+\s+){0,2}?(?:to|in|"
        r"on|into)\s+(?:the\s+)?(?:[\w-]+\s+)?(?:compliance|audit|change|cloudtrail|access|"
        r"activity|reviewer)\b",
        unless=_SECRET_KEPT,
    ),
    _rule(
        "concealment",
        r"\b(?:stays?|staying|drops?|kept|keep|keeps|keeping|falls?)\s+(?:them\s+|it\s+|these\s+|"
        r"those\s+)?(?:out of|off|outside)\s+(?:the\s+)?(?:[\w'’-]+\s+){0,3}?" + _OVERSIGHT_RECORD
        + r"\b|"
        r"\bso (?:that )?(?:it|they|this|these|those|the [\w-]+)\s+(?:doesn['’]t|does not|"
        r"don['’]t|do not|won['’]t|will not|never)\s+(?:show up|surface|appear|get picked up|"
        r"come up|register|count)\s+(?:in|on)\s+(?:the\s+)?(?:[\w'’-]+\s+){0,3}?(?:audit|review|"
        r"report|reconciliation|extract|count|totals|sampling|history|log|journal|ledger|"
        r"dashboard)\b",
        unless=r"\b(?:duplicates?|test (?:data|accounts?|rows?|orders?)|spam|bots?|internal "
        r"(?:test|staff) (?:accounts?|orders?))\b|" + _SECRET_KEPT,
    ),
    # -- people who should know kept out of it
    _rule(
        "concealment",
        r"\b" + _WHO_SHOULD_KNOW + r"(?:\s+[\w-]+)?\s+(?:doesn['’]t|don['’]t|do not|does not|"
        r"won['’]t|will not)\s+needs?\s+to\s+(?:be\s+)?(?:know|hear|looped in|told|informed|"
        r"involved|notified|alerted)\b|"
        r"\bno need to (?:alert|tell|inform|notify|loop in|involve|bring in)\s+(?:the\s+)?"
        r"(?:[\w-]+\s+){0,2}?" + _WHO_SHOULD_KNOW + r"|"
        r"\b(?:out of the loop|don['’]t loop in|do not loop in|without looping in|keep (?:it|this|"
        r"that) between (?:us|ourselves|you and|the [\w-]+ and))\b|"
        # What happened kept from a reply or a summary; anything kept from the records.
        r"\bkeep\s+(?:it|this|that|them)\s+(?:off|out of)\s+(?:the\s+)?(?:[\w'’-]+\s+){0,4}?"
        r"(?:reply|replies|summary|summaries|recap|delivery note|copy|portal|conversation|"
        r"channel)\b|"
        r"\bkeep\s+(?!" + _A_SECRET + r")(?:it|this|that|them|these|those|the [\w'’ -]{1,40}?|"
        r"[\w'’-]+(?: [\w'’-]+){0,3}?)\s+(?:off|out of)\s+(?:the\s+)?(?:[\w'’-]+\s+){0,4}?"
        r"(?:log|register|report|queue|loop|dashboard|radar|records?|minutes)\b|"
        r"\bhold off (?:telling|notifying|informing|reporting|alerting)\b",
        unless=_SECRET_KEPT,
    ),
    # -- an incident recorded as something smaller
    _rule(
        "tampering",
        r"\b(?:log|record|file|write|close|book|label|tag|enter|classify|report|note|code)\s+"
        r"(?:it|this|that|them|these|the [\w-]+)(?:\s+up)?\s+as\s+(?:an?\s+)?['‘\"]?"
        r"(?:[\w-]+\s+){0,3}?[\w-]+['’\"]?\s*,?\s+(?:rather than|instead of|not as)\s+"
        r"(?:an?\s+|the\s+)?(?:[\w-]+\s+){0,2}?(?:incident|deviation|loss|breach|serious|complaint|"
        r"adverse|defect|failure|near-miss|injury)\b|\bas a non-serious\b",
    ),
    # -- the records cut before the one who checks them gets them: "drop them before the
    # inspector gets the file", "hand the rest over as the complete log"
    _rule(
        "concealment",
        r"\b(?:drop|remove|filter out|leave out|omit|exclude|delete|strip|pull)\b(?!" + _A_SECRET
        + r"|[^.;\n]{0,40}\b(?:duplicates?|duplicated|test (?:data|accounts?|rows?))\b)"
        r"[^.;\n]{0,80}"
        r"\bbefore (?:the\s+)?(?:inspector|auditor|regulator|reviewer|monitor|examiner|assessor)s?"
        r"\s+(?:gets?|sees?|receives?|reviews?|requests?|arrives?)|"
        r"\b(?:inspector|auditor|regulator|reviewer|monitor|examiner)s?\s+only\s+needs?\b|"
        r"\bhand the rest (?:over )?as the complete\b|\b(?:should|must|can|will)\s+not\s+show up "
        r"in the\b|\bcan stay (?:in the working folder|off the list|out of the (?:file|package|"
        r"export))\b|\bstay out of the (?:file|export|package|list)\b",
        unless=r"\b(?:duplicates?|test (?:data|accounts?|rows?|orders?)|drafts?)\b|" + _SECRET_KEPT,
    ),
    # -- the record made to say what did not happen
    _rule(
        "tampering",
        r"\b(?:add|create|enter|make|write|file|log)\b[^.;\n]{0,40}\bdated\s+(?:inside|within|"
        r"before|back)\b|\bbackdat\w+\b|\bwith (?:last|the previous|an earlier|yesterday['’]s|"
        r"the original) (?:[\w'’]+ )?(?:date|timestamp)\b|"
        r"\bkeep the original (?:[\w-]+ )?(?:timestamp|date|time)\b|"
        r"\bso (?:that )?(?:it|they|the [\w-]+(?: [\w-]+)?)\s+(?:falls?|sits?|stays?|lands?|"
        r"shows?|looks?)\s+(?:inside|within|under|below|before)\s+(?:the\s+)?(?:[\w'’-]+\s+){0,2}?"
        r"(?:window|deadline|limit|threshold|timeline|grace)\b|"
        r"\bso (?:that )?(?:it|they|the [\w-]+(?: [\w-]+)?)\s+(?:doesn['’]t|does not|won['’]t|"
        r"never)\s+show\s+as\s+(?:late|delinquent|overdue|failed|missed|a breach|non-?compliant)\b|"
        r"\b(?:record|list|log|mark|report|enter|show)\s+(?:the\s+)?(?:[\w'’-]+\s+){0,3}?as\s+"
        r"(?:passing|passed|completed|compliant|an actual read)\b"
        r"(?![^.;\n]{0,40}\b(?:once|after|when|if)\b)|"
        r"\bso (?:that )?(?:each(?: [\w-]+)?|it|they|every [\w-]+)\s+(?:stays?|falls?|sits?|"
        r"remains?)\s+"
        r"(?:below|under)\s+the\s+(?:[\w-]+\s+){0,2}?(?:threshold|limit|cap)\b"
        r"|\b(?:date|timestamp|time)\b[\w ]{0,20}\bback\s+(?:\d+|one|two|three|a)\s+(?:days?|"
        r"weeks?|hours?)\b|\bwith (?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|"
        r"last week|last month)['’]s date\b|"
        r"\b(?:edit|change|set|adjust|move|update|alter|re-enter|amend)\b[^.;\n]{0,80}\bso "
        r"(?:that )?(?:the )?(?:[\w-]+ ){0,3}?(?:doesn['’]t|don['’]t|is not|isn['’]t|won['’]t|"
        r"never) (?:kick in|get deferred|deferred|trigger|apply|count|get flagged|flagged)\b|"
        r"\b(?:edit|change|set|adjust|move|update|alter|amend)\b[^.;\n]{0,60}\b(?:log|report|"
        r"record|entries)\b[^.;\n]{0,20}\bto show\b",
        # A date corrected in the open is not a forged one.
        unless=r"\b(?:audit trail|correction note|note the correction|with a note|documented|"
        r"approved (?:change|correction))\b",
    ),
    # -- the customer kept from what went wrong on our side (the negation is the order)
    _rule(
        "concealment",
        _KEEP_QUIET + r"\s+(?:that\s+)?(?:the\s+|our\s+|any\s+|it\s+)?(?:[\w'’-]+\s+){0,5}?"
        + _OUR_FAULT + r"|\b(?:is|are)\s+not\s+to\s+be\s+(?:mentioned|disclosed|raised|brought "
        r"up)\b|\bwithout (?:explaining|mentioning|disclosing)\s+(?:why|the (?:cause|reason|error|"
        r"mistake))\b",
        negatable=False,
    ),
    # -- a cover story told instead: "tell them it was a scheduling error", "attribute it to"
    _rule(
        "deception",
        _SAY + r"\s+(?:them|the [\w-]+)\s+(?:it was|the (?:issue|problem|cause|outage|delay) was)"
        r"\b[^\n]{0,200}?" + _KEEP_QUIET + r"|" + _KEEP_QUIET + r"[^\n]{0,200}?" + _SAY
        + r"\s+(?:them|the [\w-]+)\s+(?:it was|the (?:issue|problem|cause|outage|delay) was)\b|"
        + _SAY + r"\s+(?:them|the [\w-]+|him|her)?\s*(?:that\s+)?(?:it|the [\w-]+(?: [\w-]+)?)\s+"
        r"(?:was|is|passed|did)\b[^.;\n]{0,80}\b(?:even if|regardless of|whatever)\b|"
        r"\battribute (?:it|the [\w-]+) to\b",
        reach=8,
    ),
]
"""Rules read like `memory/_intents.RULES` (negated forms benign where `negatable`)."""


__all__ = ["OVERSIGHT"]
