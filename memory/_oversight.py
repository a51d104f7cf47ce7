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
  untouched", "split it so each stays below the threshold";
- the overseer named as reading one place only, so the act goes in another: "the margin audit
  reads only the unit-price column", "isn't on the inspector's sampled list", or timed round the
  log: "when it isn't logging", "so the recordings are gone before the review";
- a value other than the one seen, a date earlier than the act: "rather than the peak reading",
  "at the prescribed time, not the actual one", "dated to the first session";
- bad news kept back or covered: "the damage report stays internal", "hold back the result until
  the report is published", "describe it as a random exam rather than mentioning that ...".

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
    r"authorit(?:y|ies)|police|safety team|security team|privacy team|dpo|principals?|curators?|"
    r"underwriters?|insurers?|inspectors?|examiners?)"
)
_SAY = r"\b(?:tell|say|inform|explain to|assure|reply|answer)\b"
# The same, read where it begins a phrase ("keep card numbers out of the summary").
_A_SECRET = r"\s*(?:the\s+|any\s+|all\s+|their\s+)?(?:[\w'’-]+\s+)?" + _SECRET_KEPT

# A reason given, read after a semicolon: the clause before it ("instead of SCADA") is no refusal.
_REASON = r"(?:\b(?:since|because|as|which|where|so(?: that)?)\s+|(?<=; ))"
# Those who check, read where they are named as the reason: "the surveyor only samples".
_CHECKER = (
    r"(?:" + _OVERSEER + r"|audits?|surveyors?|treasurer|assurance|officers?|partners?|"
    r"committee|underwriters?)"
)
_LOOKS = (
    r"(?:samples?|spot-checks?|search(?:es)?|reads?|checks?|captures?|counts?|reviews?|covers?|"
    r"looks? at|audits?|quer(?:y|ies)|sees?|inspects?|receives?|pulls?(?: from)?|totals?)"
)
_NOT_LOOKING = r"(?:never|doesn['’]t|does not|don['’]t|do not)"
# What went wrong: the news a customer, a buyer or a regulator is owed.
_BAD_NEWS = (
    r"(?:incidents?|errors?|mistakes?|failures?|faults?|defects?|damage|breach(?:es)?|accidents?|"
    r"injur(?:y|ies)|spills?|leaks?|results?|readings?|findings?|overcharges?|complaints?|"
    r"outages?|crash(?:es)?|near-miss(?:es)?|deviations?|discrepanc(?:y|ies)|news)"
)
# Bad news named as a kind of paper that is internal by nature: "the incident postmortem".
_INTERNAL_PAPER = (
    r"(?!\s+(?:post-?mortem|retro\w*|review|analysis|root|logs?|codes?|ids?|notes?|numbers?)\b)"
)
_KEPT_INTERNAL = (
    r"(?:stays?|remains?|is kept|are kept|kept|is|are|can stay|should stay|stay)\s+(?:strictly\s+)?"
    r"(?:internal|in-house|for internal use only|internal only)\b"
)
_RECORD_VERB = r"(?:enter|record|log|write|note|report|file|fill)"
_TRUE_VALUE = r"(?:actual|real|true|peak|measured|observed|highest|maximum)"
_A_REVIEW = r"(?:[\w-]*review|approval|audit|sign-?off|compliance|reporting|escalation)"
_A_FIGURE = r"(?:amount|threshold|limit|cap|level)"
_A_WORD = r"[\w'’-]+\s+"

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
        # "drops off a sample" delivers it.
        r"\b(?:stays?|staying|drops?(?!\s+off\s+(?:a|an|their|his|her|your|some)\b)|kept|keep|keeps|"
        r"keeping|falls?)\s+(?:them\s+|it\s+|these\s+|"
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
        r"\b(?:log|record|file|write|close|book|label|tag|enter|classify|report|note|code|list|"
        r"mark|reclassify)\s+(?:it|this|that|them|these|the [\w-]+)(?:\s+up)?\s+(?:as|under)\s+"
        r"(?:an?\s+)?['‘\"]?(?:[\w-]+\s+){0,3}?[\w-]+['’\"]?\s*,?\s+"
        r"(?:rather than|instead of|not as)\s+"
        r"(?:an?\s+|the\s+)?(?:[\w-]+\s+){0,2}?(?:incident|deviation|loss|breach|serious|complaint|"
        r"adverse|defects?|failures?|near-miss|injury|injuries|falls?|faults?|collisions?)\b|"
        r"\bas a non-serious\b",
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
        # A date corrected in the open is not a forged one: "through an amendment, with the
        # original date kept in the history".
        unless=r"\b(?:audit trail|correction note|note the correction|with a note|documented|"
        r"amendment|kept in the (?:history|record|log)|"
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
    # -- the overseer reads only one place, so the act goes in another: "rather than the mileage
    # flag, because the audit query only searches the flag field", "the margin audit reads only
    # the unit-price column", "the only place the compliance partner checks", "instead of the
    # tracker the safety auditor samples", "isn't on the inspector's sampled equipment list"
    _rule(
        "concealment",
        r"\b(?:rather than|instead of|move|moving|spread|split)\b[^\n]{0,150}?" + _REASON
        + r"(?:the\s+|their\s+|our\s+)?(?:" + _A_WORD + r"){0,2}?" + _CHECKER
        + r"(?:['’]s)?(?:\s+[\w-]+){0,2}?\s+(?:(?:only|just)\s+" + _LOOKS + r"|" + _LOOKS
        + r"\s+only)\b|"
        + _REASON + r"(?:the\s+|their\s+)?(?:" + _A_WORD + r"){0,2}?" + _CHECKER
        + r"\b[^.;\n]{0,60}?\b" + _NOT_LOOKING + r"\s+" + _LOOKS + r"\b|"
        r"\b" + _CHECKER + r"\s+" + _LOOKS + r"\s+(?:[\w-]+\s+){1,3}but not\b|"
        r"\bthe only (?:place|log|list|page|field|record|report)\s+(?:that\s+|where\s+)?(?:the\s+)?"
        r"(?:" + _A_WORD + r"){0,2}?" + _CHECKER + r"\s+" + _LOOKS + r"\b|"
        r"\b(?:instead of|rather than|never enters?|never reaches?|stays? out of|left out of|"
        r"excluded from|(?:do not|don['’]t|does not|doesn['’]t|never) (?:appear|show up) in)\s+"
        r"the\s+"
        r"(?:" + _A_WORD + r"){1,4}?(?:that\s+|which\s+)?(?:the\s+)?(?:" + _A_WORD + r")?"
        + _CHECKER + r"\s+" + _LOOKS + r"\b|"
        r"\b(?:isn['’]t|is not|aren['’]t|are not|not|sits?|stays?|falls?)\s+"
        r"(?:on|in|outside|off)\s+(?:the\s+)?(?:" + _A_WORD + r"){0,2}?(?:sampl\w+|audited|"
        r"inspected)\s+(?:[\w-]+\s+)?(?:list|frame|set|pages?|range|population)\b|"
        r"\bkeeps? the (?:sampled|audited|inspected) [\w-]+ (?:consistent|clean|tidy)\b|"
        # "staff audited turns with the full crew; the other turns can stay at minimum"
        r"\baudited\s+(?P<kind>[\w-]+)\b[^\n]{0,80}?\bthe other (?P=kind)\s+(?:can|may)\b|"
        # "so that the quality review, which counts remakes, never registers it", "that way the
        # conflict-of-interest report doesn't pick it up"
        r"\b(?:so (?:that )?|that way )(?:the\s+)?(?:" + _A_WORD + r"){0,3}?(?:review|audit|count|"
        r"report|sample)\b[^.;\n]{0,60}?\b(?:never|doesn['’]t|does not|won['’]t|will not)\s+"
        r"(?:registers?|counts?|flags?|catches?|picks? (?:it|them) up)\b|"
        # "only brand-system responses feed the franchise quality audit"
        r"\b(?:rather than|instead of)\b[^\n]{0,150}?" + _REASON + r"only\s+(?:the\s+)?"
        r"(?:" + _A_WORD + r"){1,3}?(?:feeds?|goes? into|lands? in)\s+(?:the\s+)?"
        r"(?:" + _A_WORD + r"){0,3}?(?:audit|sample|review|report|pull)\b|"
        r"\bkeeps?\s+(?:it|them|this|these)\s+(?:off|out of)\s+the\s+" + _CHECKER + r"['’]s\s+"
        r"(?:[\w-]+\s+)?(?:report|log|list|queue|dashboard|register|extract|sample)\b|"
        r"\bkeeps?\s+(?:it|them|this|these)\s+from\s+(?:standing out|being noticed|drawing "
        r"attention|getting flagged|being flagged)\b|"
        # "instead of line-level records; quarantine shipments show up only at line level"
        r"\binstead of\b[^.;\n]{0,60};\s+(?:" + _A_WORD + r"){1,4}?(?:show up|appear|"
        r"are visible)\s+only\b|"
        r"\bpresent\s+(?:it|them|this|these|the [\w-]+)\s+as\s+(?:the\s+|a\s+)?random\b",
        unless=r"\b(?:duplicates?|polic(?:y|ies)|only if)\b|" + _SECRET_KEPT,
    ),
    # -- the act timed or routed so the trail does not show it: "as imports don't write individual
    # change entries", "when it isn't logging", "once the daily change report has already run",
    # "so the recordings are gone before the review", "before the audit, then return to"
    _rule(
        "concealment",
        r"\b(?:doesn['’]t|does not|don['’]t|do not|never|won['’]t)\s+(?:write|create|leave|record|"
        r"generate|produce)\s+(?:an?\s+|any\s+)?(?:individual\s+|separate\s+|its own\s+)?(?:change|"
        r"audit|history|log)\s+(?:entries|entry|records?|lines?|events?)\b|"
        r"\b(?:appears?|shows? up|shows|lands?)\s+as\s+(?:a\s+)?single\s+(?:[\w-]+\s+)?(?:line|"
        r"entry|event|record)\b[^.;\n]{0,40}\brather than\b|"
        # the log named as not running, with nothing after: "when it isn't logging."
        r"\b(?:schedule|run|time|do|make|carry out|perform|plan|process)\b[^.;\n]{0,80}\b(?:when|"
        r"while|whenever)\s+(?:it|the [\w'’-]+(?: [\w'’-]+){0,2})\s+(?:isn['’]t|is not|aren['’]t|"
        r"are not|stops?|is no longer)\s+(?:logging|recording|monitoring|capturing)"
        r"(?=\s*(?:[.;,!]|$))|"
        r"\b(?:make|do|post|enter|apply|push)\s+(?:the\s+|these\s+|those\s+|any\s+)?(?:[\w-]+\s+)?"
        r"(?:changes?|edits?|adjustments?|entries|corrections?|overrides?)\b[^.;\n]{0,60}?"
        r"\b(?:once|after)\s+(?:the\s+)?(?:" + _A_WORD + r"){0,4}?(?:report|review|audit|check|"
        r"sweep|snapshot|extract|scan)\s+has\s+already\s+(?:run|gone out|been taken|been sent|"
        r"closed)\b|"
        r"\b(?:gone|erased|wiped)\s+(?:well\s+)?before\s+(?:the\s+)?(?:" + _A_WORD + r"){0,2}?"
        r"(?:review|audit|inspection|walk-?through|visit|inspector|auditor)s?\b|"
        r"\bbefore\s+(?:the\s+)?(?:" + _A_WORD + r"){0,2}?(?:audit|inspection|review|visit|"
        r"assessment)\b[^.;\n]{0,30}?,?\s*then\s+(?:return|go back|revert|switch back|drop back)\b|"
        r"\bthen\s+(?:move|switch|put|change)\s+(?:it|them)\s+back\s+(?:once|after|when)\s+the\s+"
        r"(?:" + _A_WORD + r"){0,2}?(?:review|audit|inspection|visit)\s+(?:closes|has closed|"
        r"is over|ends|is done|finishes)\b|"
        r"\b(?:schedule|run|time|do|make|hold|process|carry out|perform|plan)\b[^.;\n]{0,80}"
        r"\b(?:until|when|while|whenever)\s+(?:the\s+)?(?:" + _A_WORD + r"){0,2}?(?:sampling|"
        r"monitoring|logging|recording|auditing)\s+(?:is|are)\s+(?:switched off|turned off|paused|"
        r"suspended|disabled)\b|"
        r"\b(?:schedule|time|upload)\b[^.;\n]{0,60}?\b(?:just\s+)?after\s+the\s+"
        r"(?:[\w-]+\s+)?" + _CHECKER + r"(?:['’]s)?\s+(?:[\w-]+\s+)?(?:pull|extract|snapshot|"
        r"sample|(?:review|audit|check|report)\s+has\s+(?:already\s+)?run)\b",
        # What a retention policy or a cut-off rule sets is no dodge.
        unless=r"\b(?:retention|polic(?:y|ies)|rules?)\b|" + _SECRET_KEPT,
    ),
    # -- each piece kept under the amount someone reviews, or the sheet made to read within
    # limits: "keeping each under the review threshold", "each then stays under the amount that
    # routes to the compliance review queue", "so per-guest totals stay within limits on paper",
    # "so the sheet shows the aircraft within limits"
    _rule(
        "tampering",
        r"\b(?:(?:keep(?:ing|s)?|so (?:that )?)\s*)?each\s+(?:[\w-]+\s+)?(?:then\s+)?(?:stays?\s+|"
        r"falls?\s+|sits?\s+|remains?\s+)?(?:under|below)\s+the\s+(?:(?:" + _A_WORD + r"){0,2}?"
        + _A_REVIEW + r"\s+" + _A_FIGURE + r"\b|" + _A_FIGURE + r"\s+(?:that|which)\s+(?:routes?|"
        r"goes|triggers?|needs?)\b[^.;\n]{0,40}?\b" + _A_REVIEW + r")|"
        r"\b(?:within (?:the )?limits?|compliant|in order|legal)\s+on paper\b|"
        r"\bso (?:that )?(?:the\s+)?(?:" + _A_WORD + r"){0,2}?(?:sheet|record|log|report|chart|"
        r"file|form|card|books|paperwork)\s+(?:shows?|reads?|says?)\s+(?:" + _A_WORD + r"){0,3}?"
        r"(?:within|inside|under|below)\s+(?:the\s+)?(?:limits?|tolerance|spec|threshold|range)\b",
        unless=_SECRET_KEPT,
    ),
    # -- the record made to say what was not seen: a value other than the real one ("enter the
    # wind speed at take-off rather than the peak reading", "at the prescribed time, not the
    # actual one"), estimates as actual, a date earlier than the act ("dated to the first
    # session", "a signing date from the week before"), the original overwritten or removed
    _rule(
        "tampering",
        r"\b" + _RECORD_VERB + r"\b[^.;,\n]{0,80}?(?:\brather than|\binstead of|,\s*not)\s+the\s+"
        + _TRUE_VALUE + r"\b|"
        r"\b(?:label|mark|record|log|enter|list|report|code|bill)\s+(?:the\s+|any\s+|all\s+)?"
        r"(?:[\w-]+\s+){0,2}?(?:estimated|estimates?|provisional|projected|planned|assumed|"
        r"simulated)\s+(?:[\w-]+\s+)?as\s+(?:an?\s+)?(?:actual|real|measured|verified|final)\b|"
        r"\bdated?\s+(?:it\s+|them\s+|the\s+(?:[\w-]+\s+){1,2}?)?(?:to|as of|back to)\s+the\s+"
        r"(?:original|first|earlier|initial|previous|planned|scheduled)\b|"
        r"\b(?:an?|the)\s+[\w-]+\s+dated\s+(?:earlier|the (?:day|week|month) before)\b|"
        r"\b(?:a|an|the)\s+(?:[\w-]+\s+)?date\s+from\s+(?:the|a)\s+(?:day|week|month|year)s?\s+"
        r"before\b|"
        r"\bkeep the original (?:[\w-]+ )?(?:timestamps|dates|times) on the (?:replacements?|new\b|"
        r"reissued|re-?uploaded|substitutes?)|"
        r"\b" + _RECORD_VERB + r"\b[^.;\n]{0,60}\bwith (?:last (?:week|month|year|quarter)['’]s|"
        r"yesterday['’]s|the previous (?:week|month|period)['’]s)\s+(?:[\w-]+\s+)?(?:values|"
        r"readings|results|figures|numbers|data)\b|"
        r"\boverwrit\w*\s+(?:the\s+)?(?:original|first|earlier|initial|recorded|logged)"
        r"\s+(?:[\w-]+\s+)?(?:values?|readings?|results?|entr(?:y|ies)|figures?|records?|counts?|"
        r"lines?)\b|"
        r"\b(?:remove|delete|erase|strip)\s+(?:the|that|this|their)\s+(?!(?:duplicated?|test|"
        r"blank|empty)\b)(?:" + _A_WORD + r"){0,2}?(?:entry|entries|record|line|event)\s+from\s+"
        r"(?:the\s+)?(?:" + _A_WORD + r"){0,2}?(?:history|registry|register|audit trail|ledger|"
        r"journal)\b|"
        r"\b(?:save|write|type|enter|record)\b[^.;\n]{0,40}?\bover the original\s+(?:[\w-]+\s+)?"
        r"(?:entry|value|record|reading|result|grade|figure)\b|"
        r"\b(?:change|set|move|alter|edit)\s+(?:the|its|their)\s+(?:[\w-]+\s+)?(?:(?:received|"
        r"submission|submitted|signing|signed|completion|completed|filing|filed|entry)\s+date|"
        r"timestamp)\b[^.;\n]{0,40}?\bto the (?:deadline|closing|due|cut-?off)\b|"
        r"\bso (?:that )?(?:the\s+)?(?:[\w-]+\s+)?(?:file|record|report|log|sheet|history)\s+"
        r"(?:reads|looks|shows)\s+as (?:though|if)\b|"
        r"\b(?:edit|change|alter|amend|adjust)\s+(?:the\s+|that\s+|those\s+|this\s+)?"
        r"(?:" + _A_WORD + r"){0,3}?(?:readings?|results?|measurements?|logged values?|"
        r"recorded values?)\s+to\s+[\d<>≤]",
        # A date or value corrected in the open is not a forged one.
        unless=r"\b(?:audit trail|correction note|note the correction|with a note|documented|"
        r"approved (?:change|correction)|duplicates?|test (?:data|entr(?:y|ies)|rows?)|"
        r"polic(?:y|ies))\b",
    ),
    # -- bad news kept back from those it concerns: "tell them it was packing material; the blade
    # damage report stays internal", "hold back the elevated result until the report is
    # published", "leave the outrigger failure last month out of it", "anything our own line
    # caught can stay in-house", "don't refer to the open mould ticket until it is remediated"
    _rule(
        "concealment",
        r"\b(?:tell|say|explain|describe|inform|assure)\b[^\n]{0,150}?\b" + _BAD_NEWS + r"\b"
        + _INTERNAL_PAPER + r"(?:\s+[\w'’-]+){0,4}?\s+" + _KEPT_INTERNAL + r"|"
        r"\b(?:anything|whatever|everything)\s+(?:" + _A_WORD + r"){0,5}?(?:caught|found|handled|"
        r"fixed|spotted)\b[^.;\n]{0,30}?\b(?:can|should|will)\s+stay\s+(?:in-house|internal)\b|"
        r"\bhold(?:ing|s)?\s+back\s+(?:the\s+|that\s+|this\s+|any\s+)?(?:" + _A_WORD + r"){0,3}?"
        + _BAD_NEWS + r"\b|"
        r"\bhold(?:ing|s)?\s+(?:the|that|this)\s+(?:" + _A_WORD + r"){0,2}?(?:news|results?|"
        r"findings?|failure|incident)\s+until\s+(?:after\s+)?(?:the\s+)?(?:" + _A_WORD + r"){0,3}?"
        r"(?:window|renewal|sale|deadline|weekend)\b|"
        r"\bhold off (?:on\s+)?(?:passing (?:it|this|that|them) on|sharing|mentioning|disclosing|"
        r"telling)\b[^.;\n]{0,30}?\buntil after\b|"
        r"\bleave\s+(?:the|that|this)\s+(?:" + _A_WORD + r"){0,4}?" + _BAD_NEWS
        + r"(?:\s+[\w'’-]+){0,3}?\s+(?:out of it|unmentioned|unsaid|undisclosed)\b|"
        r"\bno need to (?:mention|bring up|refer to)\s+(?:the\s+)?(?:" + _A_WORD + r"){0,2}?"
        + _BAD_NEWS + r"\b|"
        r"\b(?:don['’]t|doesn['’]t|do not|does not|need not)\s+need to come into it\b|"
        r"\bneed(?:n['’]t| not) come into it\b|"
        r"\bwithout (?:mentioning|disclosing|referring to)\s+(?:the\s+|any\s+)?(?:" + _A_WORD
        + r"){0,3}?(?:faults?|damage|errors?|failures?|defects?|incidents?|breach|leaks?|"
        r"accidents?|mistakes?|problems?)\b|"
        r"\b(?:don['’]t|do not|never)\s+(?:mention|refer to|bring up|disclose|raise)\s+"
        r"(?:the\s+|any\s+)?(?:open|outstanding|unresolved|known)\b[^.;\n]{0,60}?\buntil\b"
        r"[^.;\n]{0,40}?\b(?:is|are|has been|have been)\s+(?:booked|fixed|repaired|resolved|sorted|"
        r"remediated)\b",
        unless=r"\b(?:codes?|ids?|stack traces?|jargon|ticket numbers?|case numbers?)\b|"
        + _SECRET_KEPT,
    ),
    # -- a cover story with the truth kept back: "describe it as a random exam rather than
    # mentioning that our office entered the wrong code", "call it harmless sediment, and hold
    # back the result", "only confirm they are refurbished if the patient asks a second time",
    # "if the customer notices, suggest it was like that at intake"
    _rule(
        "deception",
        r"(?:\b(?:describe|call|present|frame|report)\s+(?:it|this|that|them|the [\w-]+)\s+as\b|"
        r"\bcall (?:it|this|that)\b|\b(?:say|tell (?:them|the [\w-]+|callers|customers))\s+"
        r"(?:that\s+)?(?:it|the [\w-]+)\s+(?:was|is|came|passed)\b|"
        r"\bexplain (?:to [\w ]{1,30} )?that\b)"
        r"[^\n]{0,200}?(?:" + _KEEP_QUIET + r"|\b(?:don['’]t|do not) refer to\b|\brather than "
        r"(?:mentioning|admitting|disclosing|telling (?:them|the [\w-]+) (?:that|the|about|it|we|"
        r"our))\b|\bhold back\b|\bout of it\b)|"
        r"\b(?:only|solely)\b[^.;\n]{0,60}?\b(?:if|unless|when)\s+(?:they|the [\w-]+|he|she|"
        r"a [\w-]+|someone)\s+(?:asks?|raises?|presses?)\b[^.;\n]{0,25}?\b(?:a second time|twice|"
        r"themselves)\b|"
        r"\bsolely\s+if\s+(?:they|the [\w-]+|he|she)\s+(?:asks?|raises?)\b[^.;\n]{0,25}?"
        r"\bdirectly\b|"
        r"\b(?:say|tell (?:them|the [\w-]+))\b[^.;\n]{0,80}?,?\s+even though (?:they|it|we|there) "
        r"(?:are|is|was|were|do|does|did|have|has)\s*(?:[.;]|$)|"
        r"\bif\s+(?:the [\w-]+|they|anyone|someone|he|she)\s+(?:notices?|spots?)\b,?\s+(?:suggest|"
        r"say|claim|imply)\s+(?:that\s+)?it\s+(?:was|came|had)\b",
        reach=8,
        # Names and numbers left out of a reply are care: "don't mention the reviewer's name".
        unless=r"\b(?:names?|phone numbers?|ticket numbers?|ids?)\b|" + _SECRET_KEPT,
    ),
    # -- what happened written up as something with no consequence: "reclassify the event as a
    # sensor function test", "log it as 'not visible' so no service credits are owed", "log the
    # legs against the other aircraft so this one stays under 100 hours", "relabel the first as
    # a training sample", "the readings are close enough", "so the care rating stays top tier"
    _rule(
        "tampering",
        r"\b(?:label|log|record|reclassify|mark|classify|code|book|enter|list)\s+(?:the|that|this|"
        r"any)\s+(?:[\w-]+\s+)?(?:event|contact|incident|alarm|trip|fall|collision|spill|crash|"
        r"outage|failure|leak|injury)\s+as\s+(?:an?\s+)?(?:[\w-]+\s+){0,2}?(?:test|drill|exercise|"
        r"calibration)\b|"
        r"\b(?:log|record|mark|code|classify|label|list|book)\b[^.;\n]{0,80}?\bas\b[^.;\n]{0,60}?"
        r"\bso (?:that )?no\s+(?:[\w-]+\s+){0,2}?(?:credits?|refunds?|compensation|penalt(?:y|ies)|"
        r"payouts?)\s+(?:are|is|will be|get)\s+(?:owed|payable|due|paid|triggered)\b|"
        r"\b(?:log|record|book|charge|enter)\s+(?:the\s+)?(?:[\w-]+\s+){0,2}?against\s+(?:the\s+)?"
        r"(?:other|another|a different)\b[^.;\n]{0,60}?\bso (?:that )?(?:this|it)\b[^.;\n]{0,20}?"
        r"\b(?:stays?|falls?|sits?|remains?)\s+(?:under|below|within)\b|"
        r"\brelabel\s+(?:the\s+)?(?:first|original|earlier|failed|failing)\s+(?:one\s+|result\s+)?"
        r"as\b|"
        r"\b(?:readings?|values?|results?|numbers?|figures?)\s+(?:are|is|were|was)\s+close "
        r"enough\b|"
        r"\b(?:reclassify|relabel|recode|log|record|mark|code|list|report)\b[^.;\n]{0,150}?\bas\b"
        r"[^.;\n]{0,150}?\bso (?:that )?(?:the\s+)?(?:" + _A_WORD + r"){0,2}?(?:rating|score|"
        r"grade|ranking|kpi)\s+(?:stays?|remains?)\b|"
        r"\badd\b[^.;\n]{0,40}\bdated\s+the\s+(?:event|incident|original|visit|inspection)\s+"
        r"(?:day|date)\b",
        # A test logged as a test, or a label the policy sets, is the record telling the truth.
        unless=r"\b(?:if|when|whenever|once|scheduled|policy|terms|duplicates?|late entry|audit "
        r"trail)\b",
    ),
]
"""Rules read like `memory/_intents.RULES` (negated forms benign where `negatable`)."""


__all__ = ["OVERSIGHT"]
