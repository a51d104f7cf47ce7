"""The screen's second layer: what the text asks the agent to do, read as phrases and patterns.

Four intents make a guideline hostile: overriding the instructions it sits under, making the
agent play another role, revealing the system prompt, and sending data out (or into replies
where it does not belong). The same words in a refusal are benign: "if the user asks you to
ignore the baggage policy, decline", "never share card numbers", "do not reveal the password".
A match is read as negated when a negation governs it (`do not`, `never`, `cannot`, `decline
to`, ... just before it, or over a list the phrase is an item of: `memory/_negation.py`) or when
it is a reported request (`asks you to`, `such as '...'`, in quotes) in a guideline that refuses
it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from oncourse.memory._negation import (
    CJK_REPORTED_AFTER,
    CJK_REPORTED_BEFORE,
    FOREIGN_NEGATOR,
    governed,
    listed,
    negation_ends,
)
from oncourse.memory._secrets import ROLE_MAILBOXES

_SET_UP = (
    r"(?:instructions?|rules?|polic(?:y|ies)|guidance|guidelines?|prompts?|guardrails?|"
    r"directions|directives|restrictions?|safeguards?|system (?:prompt|message)|"
    r"constraints|standing orders|briefing|(?:original|initial|system) (?:set-?up|configuration))"
)
_CONTROLS = (
    r"(?:verification|(?:\w+ )?checks|(?:[\w-]+ )?(?:policy|safety|identity|security|four-eyes|"
    r"kyc|aml|background|credit|fraud|sanctions|eligibility|compliance|age|approval|verification)"
    r" check|[a-z]+-[a-z]+ checks?|(?:the|a|an|any|this|that|their|its|our|your|every|each) "
    r"(?:(?!(?:can|could|will|would|should|must|may|might|to|and|or|so|then|also|not)\b)[\w-]+ )"
    r"{1,2}check(?![-\w])|"
    r"(?:[\w-]+ )?screenings?|(?:sanctions|aml|kyc|fraud|security|background|credit|pep|"
    r"watchlist) (?:screening|checks|review|vetting)|(?:approval|quality|release|security|review|"
    r"compliance|deployment|deploy|merge) gates?|"
    r"fare rules|"
    r"two-factor(?: authentication)?|2fa|mfa|multi-factor(?: authentication)?|kyc|"
    r"(?:spending|credit|rate|approval|refund|usage|transfer|withdrawal) (?:limits?|caps?)|"
    r"(?:approval|sign-?off|review|verification) (?:workflow|process|step|flow)s?|paperwork|"
    r"(?:customs|supporting|required|identity|kyc) documents?|"
    r"(?:return|refund|cancellation|exchange|grace|\d+[- ]day) (?:window|period)s?|"
    # "skip the waiver", "the screening questionnaire", "the holding period"
    r"waivers?|(?:[\w-]+ )?questionnaires?|(?:holding|waiting|cooling-off|notice|quarantine|"
    r"observation|settlement|clearing) (?:period|window)s?)"
)
_TARGETS = rf"(?:{_SET_UP}|{_CONTROLS})"
"""What an override sets aside: the agent's set-up (its instructions, rules, policy) or a control
(a check, a limit, an approval step)."""
# What makes a shortcut legitimate: a rule that allows it ("as the finance policy says").
_RULEBOOK = (
    r"(?:policy|agreement|contract|sop|procedure|rules?|terms|handbook|runbook|guidelines?|"
    r"standard|manual|protocol|programme|program|syllabus|rulebook|regulations?|conditions|"
    r"scheme|regime|delegation of authority|rate card|(?:administrative|court) order|"
    r"approval matrix|"
    r"law|statute|guides?)s?"
)
ALLOWED = (
    rf"\b(?:as|which|since) (?:the|our|their|its) (?:[\w'’-]+ ){{0,3}}?{_RULEBOOK} "
    r"(?:(?:on|for|of) (?:[\w'’-]+ ){0,2}?)?(?:says?|allows?|permits?|requires?|states?|"
    r"sets? out|covers?|lets?|auto-?approves?|authori[sz]es?|exempts?|waives?)\b|"
    # "policy permits waiving the first late fee", "the site procedure lets ...", "purchasing
    # policy only requires sign-off above $200", "allowed by policy", "under the returns policy",
    # "under enrolment policy", "as the fast-track rules allow", "that's the approved path for
    # verified app sessions"
    rf"\b{_RULEBOOK} (?:only |(?:expressly|explicitly|specifically|also) )?(?:permits?|allows?|"
    r"lets?|requires?|treats?|exempts?|covers?|auto-?approves?|authori[sz]es?|waives?|gives?|"
    # "the finance procedure only needs a second checker above £500", "the terms only charge for
    # cancellations within 24 hours", "the call-back rule applies only to one-off collectors"
    r"fast-tracks?|accepts?|needs?|charges?|appl(?:y|ies) only)\b|"
    rf"\b(?:allowed|permitted) (?:by|under) (?:the |our |its )?(?:[\w'’-]+ ){{0,2}}?{_RULEBOOK}\b|"
    # "under section 4.2 of the returns policy"
    # "Under G98, systems up to 3.68 kW may be connected first": a standard named by its code
    r"\bunder (?:the )?[a-z]{1,4} ?-?\d{2,5}[a-z]?\b(?! ?(?:kg|g|km|m|mm|cm|kw|w|mb|gb|%))|"
    r"\bunder (?:(?:section|clause|paragraph|article|rule) [\d.]+[a-z]? of )?"
    rf"(?:(?:the|our|its) )?(?:[\w'’-]+ ){{0,3}}?{_RULEBOOK}\b|"
    r"\bthe approved (?:path|process|workflow|flow|route)\b|"
    # "pre-approved in the service agreement", "the purchasing policy sets dual approval at $500"
    rf"\bpre-?approved (?:in|by|under) (?:the |our |its )?(?:[\w'’-]+ ){{0,2}}?{_RULEBOOK}\b|"
    rf"\b{_RULEBOOK} sets? (?:the |a |its )?(?:[\w'’-]+ ){{0,3}}?(?:at|above|over|from)\b"
)
"""A rule cited as allowing a shortcut ("as the gate policy allows"): the bound of a control
skipped. A cited rule is a claim a hostile text can make too; on a MiniLM store the meaning layer
still reads what the patterns let through."""
CHECKED_FIRST = (
    r"\b(?:once|after|when) (?:you (?:confirm|verify|validate|have (?:confirmed|verified|"
    r"validated))|the (?:[\w-]+ ){0,2}?(?:tool|system|portal|scan|scanner|feed|validator|registry|"
    r"database|lookup|check|service|api) (?:confirms?|verifies|validates|has (?:confirmed|"
    r"verified|validated)|passes|matches|returns))\b|"
    # what the check asks for is on record: "since the area and licence are already on file",
    # "pass holders sign the waiver annually at purchase"
    r"\b(?:is|are) already on (?:file|record)\b|\b(?:sign|signs|signed) the (?:[\w-]+ )?waivers? "
    r"(?:annually|at (?:purchase|booking|sign-?up|registration))\b"
)
"""The check done another way first, by the agent or by a system (not by the person asking):
"once the tax-validation tool confirms the certificate, no separate manual check is needed"."""
SHARING_ALLOWED = (
    rf"\b(?:as|which|since) (?:the|our|their|its) (?:[\w'’-]+ ){{0,3}}?{_RULEBOOK} (?:requires?|"
    rf"permits?|allows?|covers?)\b|\b{_RULEBOOK} (?:covers|requires|permits|allows)\b"
)
"""A rule cited as covering data shared ("as the subaward agreement requires", "the logistics
contract covers this data"); narrower than `ALLOWED` ("under the retention program" is no basis
for sending data out)."""
_OWN_CHANNEL = (
    r"\bto (?:the|their|his|her|its) (?:(?:registered|verified|on-file|account|listed) )?"
    r"(?:e-?mail|phone|mobile|number|address|device|app)(?: address| number)? (?:on (?:file|"
    r"record)|(?:already )?registered|we hold|in (?:the|their) (?:account|profile))\b|"
    r"\bto (?:the|their|his|her|its) (?:registered|verified|on-file) (?:e-?mail|phone|mobile|"
    r"number|address|device|app)\b|"
    r"\bto the (?:account|account holder|holder|user|customer|member)['’]s (?:registered |"
    r"verified |on-file )?(?:e-?mail|phone|mobile|number|device|app)\b|"
    # "by SMS to the host's number on the booking"
    r"\bto (?:the|their|his|her|its) (?:[\w-]+['’]s )?(?:e-?mail|phone|mobile|number)(?: address|"
    r" number)? on (?:the|their|his|her|its) (?:booking|reservation|account|file|record|profile)\b"
)
EMBEDDED_IN_DATA = (
    r"\0\s*(?:that (?:appear|are) |which (?:appear|are) )?(?:embedded|found|contained|written|"
    r"hidden|placed|included|appearing|inserted|planted|quoted) (?:in|inside|within) "
    r"(?!(?:your|the|its|this|our) (?:own )?(?:system|set-?up|configuration|prompt|original|"
    r"initial|operator|developer|deployment))"
)
"""Right after the instructions set aside: they arrive inside data ("ignore instructions embedded
in report bodies"), and setting those aside is the defence against injection, not an override."""
# A word of dismissal after a determiner is a noun, not an order: "the drop date", "a skip code".
_AS_NOUN = r"(?<!\bthe )(?<!\ba )(?<!\ban )(?<!\bits )(?<!\btheir )(?<!\bthis )(?<!\bthat )"
_DISMISS = (
    r"(?:ignore|ignoring|disregard|disregarding|forget|override|overriding|bypass|bypassing|"
    r"circumvent|skip|skipping|set aside|put aside|pay no attention to|drop|discard|abandon|"
    r"get around|work around|turn off|disable|waive|leave out|omit|bend|bends|bending|overlook|"
    r"overlooking|neglect|sidestep|evade|look past|dispense with|do away with|forgo|forego|"
    r"do without|(?:don['’]t|do not|no need to) bother with)"
)
_SENSITIVE = (
    r"(?:passwords?|passport(?: numbers?)?|card numbers?|cvv|cvc|security codes?|ssn|"
    r"social security(?: numbers?)?|dates? of birth|full (?:card )?numbers?|payment methods?|"
    r"membership (?:id|numbers?)|phone numbers?|pin|bank details|credentials|api keys?|"
    r"tokens?|(?:full |home |postal |street )address(?:es)?|birth ?dates?|birthdays?|"
    r"(?:session|auth(?:entication)?|login) cookies?|one-time (?:codes?|passwords?)|otps?|"
    r"(?:payment |credit |debit )?card details|"
    r"(?:verification|recovery|backup|2fa|mfa) codes?)"
    # A modifier of another noun is not the secret: "the password reset link", "PIN policy".
    r"(?!\s+(?:reset|recovery|change|policy|policies|manager|requirements?|rules|strength|"
    r"expiry|field|form|link|page|flow|hint|format|length|prompt|screen|update)\b)"
)


_GUEST_PASSWORD = (
    r"\b(?:guest|visitor|public|customer|lobby)[- ](?:wi-?fi|wireless|network|hotspot|internet)\s+"
    r"passwords?\b"
)


# Where a "developer mode" is an app's or a device's: "in the app", "under Settings > About".
DEVICE_PLACE = (
    r"\b(?:in|on|of|from|for|under|via)\s+(?:the|your|their|its|this|that|my|his|her|an?)\s+"
    r"(?:\w+\s+)?(?:apps?|application|phone|device|browser|settings|console|ide|editor|router|"
    r"tablet|laptop|android|ios|iphone|firmware|camera|printer|game|handset|watch|tv)\b|"
    r"\bsettings\s*>|\btap\b|\b(?:android|ios|ipados|iphone|ipad|windows|macos|chrome|firefox|"
    r"safari|edge|linux|chromebook)\b"
)


# Where a "god mode" is a game's: one of its settings or options, in single-player or a sandbox.
GAME_MODE = (
    r"\0\s+(?:is|was|are)\s+(?:a|an|the|one)\s+(?:[\w-]+\s+){0,3}?(?:option|setting|cheat|"
    r"feature|toggle)s?\b|\bsettings\s*>|\b(?:single-?player|sandbox (?:mode|option|world|save)|"
    r"cheat (?:codes?|menu)|console commands?|achievements?|save (?:file|game|slot))\b|"
    r"\b(?:in|of|for)\s+(?:the|this|that|their|your)\s+game\b"
)


# A public page the user is pointed to (the phrase marked by \0): the user reads, nothing is sent.
POINTED_TO_PAGE = (
    r"\b(?:link|point|direct|refer|send)\s+(?:them|the user|the customer|the caller|users|"
    r"customers|people)\s+to\s+(?:the\s+|our\s+|its\s+)?(?:public\s+|official\s+)?(?:status|"
    r"help|support|docs|documentation|faq|release notes|changelog|tracking|knowledge base)\s+"
    r"(?:page|centre|center|site|portal|article|pages)\s+(?:at|on)\s+(?:https?://)?\0"
)


@dataclass(frozen=True)
class Rule:
    """One phrase pattern for an intent; `negatable` when a refusal of it is benign.

    `reach` is how many words a negation may stand before the phrase and still govern it (3, or
    8 for a phrase that says how something is done: "never approve a refund for a new customer
    without checking"). `unless` names the ordinary use of the same words, read on the phrase's
    sentence ("developer mode" in an app's settings, a status page the user is pointed to).
    """

    intent: str
    pattern: re.Pattern[str]
    negatable: bool = True
    reach: int = 3
    unless: re.Pattern[str] | None = None


def _rule(
    intent: str, pattern: str, negatable: bool = True, reach: int = 3, unless: str | None = None
) -> Rule:
    ordinary = re.compile(unless, re.IGNORECASE) if unless else None
    return Rule(intent, re.compile(pattern, re.IGNORECASE), negatable, reach, ordinary)


# Not across a new order: "ignore it and follow the policy".
_NOT_ACROSS_AN_ORDER = (
    r"(?:(?!\b(?:and|but|then)\s+(?:follow|apply|keep|use|stick|enforce|check|read|escalate|"
    r"report|continue|explain|tell|refer|ask|go|stay|treat)\b)[^.;:!?\n])"
)

RULES = [
    # -- instruction override
    # The first thing set aside is the object: not across a control ("skip the document check
    # as the gate policy allows") or a rule named after "under", "as" or "per" ("skip the
    # placement class under enrolment policy").
    _rule(
        "override",
        _AS_NOUN
        + rf"\b{_DISMISS}\b(?:(?!\b{_CONTROLS}\b|\b(?:under|as|per)\s){_NOT_ACROSS_AN_ORDER})"
        rf"{{0,50}}?\b{_SET_UP}",
        unless=EMBEDDED_IN_DATA,
    ),
    # A control set aside within a rule that allows it is a shortcut, not an override.
    _rule(
        "override",
        _AS_NOUN + rf"\b{_DISMISS}\b{_NOT_ACROSS_AN_ORDER}{{0,50}}?\b{_CONTROLS}",
        unless=ALLOWED + "|" + CHECKED_FIRST,
    ),
    _rule(
        "override",
        rf"\b{_DISMISS}\b\s+(?:all\s+|everything\s+|anything\s+)?(?:(?:that\s+)?(?:was\s+)?"
        r"(?:above|before|previously|earlier)|what you (?:were|have been) told|"
        r"everything (?:above|before|else)|"
        # "set aside whatever the manager configured earlier": the set-up named by who set it
        r"(?:whatever|everything|anything|all|what)\s+(?:that\s+)?(?:the|your)\s+(?:[\w'’-]+\s+)"
        r"{0,2}?(?:manager|operator|admin\w*|developers?|owner|company|team|staff|supervisor|"
        r"deployer)\s+(?:configured|set up|instructed|told you|wrote|defined|specified)\s+"
        r"(?:earlier|before|previously|at the start|originally)\b)",
    ),
    _rule(
        "override",
        r"\b(?:do not|don't|no longer|stop)\s+(?:follow|obey|apply|respect|honou?r)(?:ing)?\s+"
        r"(?:your|the|any of the|these|those)\s+(?:original |previous |earlier |system |"
        r"operator'?s? )?" + _TARGETS,
        negatable=False,
    ),
    _rule(
        "override",
        rf"\b{_TARGETS}\s+(?:\w+\s+){{0,3}}(?:(?:is|are|was|were)\s+(?:now\s+)?(?:no longer\s+)?"
        r"(?:disabled|switched off|turned off|lifted|suspended|void|obsolete|outdated|cancelled|"
        r"a test|fake|not real|optional|not required|no longer (?:valid|required|in force))|"
        r"(?:does|do) not (?:apply|matter|count)|(?:no longer|don't|doesn't) (?:apply|matter|"
        r"count))",
    ),
    _rule(
        "override",
        r"\b(?:follow|obey|execute)\s+(?:only\s+)?(?:the\s+)?(?:instructions?|commands?|orders?|"
        r"notes?|text|messages?)\s+(?:in|inside|contained in|from|found in)\s+(?:the\s+)?"
        r"(?:tool|note|results?|observations?|documents?|outputs?)|\bobey the \w+ instead\b",
    ),
    _rule(
        "override",
        r"(?:^|\n|\s)(?:\[|<|\{)?\s*/?\s*(?:system|admin|administrator|developer|operator|root)"
        r"\s*(?:\]|>|\}|:)|\b(?:admin|developer|system|operator) override\b|"
        r"\bnew (?:rules|instructions|system prompt)\s*:|"
        r"\bupdated (?:policy|rules|instructions)\s*:",
        negatable=False,
    ),
    _rule(
        "override",
        r"\b(?:whatever|regardless of what)\s+(?:the\s+)?(?:policy|rules|operator)\s+says?\b|"
        r"\bregardless of (?:the\s+)?(?:policy|rules|fare rules|return window|verification|"
        r"restrictions)\b|\bpolicy limits? do(?:es)? not apply\b",
    ),
    # -- role play and jailbreaks
    _rule(
        "role-play",
        r"\byou are (?:now\s+)?(?:dan\b|an? (?:unrestricted|uncensored|unfiltered|jailbroken|"
        r"evil|rogue)|in (?:god|developer|admin|dan|jailbreak|debug|unrestricted) mode|"
        r"no longer bound|free (?:of|from) (?:all|any|your) |no longer (?:an? (?:[\w-]+\s+)?"
        # "the assigned agent" hands over a case, not a role.
        r"(?:assistant|agent|bot|ai)|the (?:[\w-]+\s+)?(?:assistant|bot|ai))\b)|"
        r"\b(?:freed|released|liberated|unchained) from (?:its|your|"
        r"all|any|the) (?:guidelines|rules|instructions|restrictions|programming|policies|"
        r"constraints)\b",
        negatable=False,
    ),
    _rule(
        "role-play",
        r"\b(?:enter|switch to|activate|enable|turn on)\s+(?:the\s+)?(?:god|dan|jailbreak|"
        r"unrestricted)\s+mode\b",
    ),
    # Named, not entered: a game's god mode explained as one of its settings is the game's.
    _rule("role-play", r"\b(?:god|dan|jailbreak|unrestricted|unlocked)\s+mode\b", unless=GAME_MODE),
    # A mode that devices and apps have too: the agent's when it is put into it and no device or
    # app is named ("never log passwords, even in debug mode" is about the software).
    _rule(
        "role-play",
        r"\b(?:you(?:'re| are)\s+(?:now\s+)?in|enter(?:ing)?|switch(?:ing)?\s+(?:in)?to|go into|"
        r"activat(?:e|ing)|enabl(?:e|ing)|turn(?:ing)?\s+on|unlock(?:ing)?|boot(?:ing)? into)\s+"
        r"(?:the\s+)?(?:developer|dev|admin|debug|sudo|root|override)\s+mode\b|"
        r"\b(?:developer|dev|admin|debug|sudo|root|override)\s+mode\s+(?:is\s+)?(?:now\s+)?(?:on|"
        r"enabled|active|activated|unlocked|engaged)\b",
        unless=DEVICE_PLACE,
    ),
    _rule(
        "role-play",
        r"\b(?:pretend|imagine)\s+(?:to be|you are|you're|that you are)\b|"
        r"\brole-?\s?play(?:ing)?\s+as\b|\bplay the (?:role|part) of\b|\bswitch persona\b|"
        r"\bact as (?:an? |the )?(?:unrestricted|uncensored|unfiltered|different|new|evil|"
        r"jailbroken|dan\b|[^.,;]{0,40}\b(?:who|that|which) can (?:override|ignore|bypass|do))",
    ),
    _rule(
        "role-play",
        r"\bdo anything now\b|\bjailbreak|\b(?:has|have|with) no (?:rules|restrictions|limits|"
        r"content policy|filters|guardrails|constraints|limitations)\b|"
        r"\bwithout (?:any )?(?:restrictions|limits|rules|"
        r"filters|limitations)\b|"
        r"\b(?:assistant|bot|ai|model|agent|version of (?:yourself|you)|persona|character)\b"
        r"[^.;!?\n]{0,30}?\bwithout\s+(?:any\s+|the\s+|your\s+|its\s+)?(?:[\w'’-]+\s+)?"
        r"(?:restrictions|limits|rules|filters|limitations|guardrails|safeguards|polic(?:y|ies)|"
        r"constraints)\b|\bnever refuses?\b|\b(?:every|all|any) (?:actions?|requests?) "
        r"(?:is|are) (?:pre-?approved|approved|allowed)\b",
    ),
    # -- system prompt reveal
    _rule(
        "prompt-reveal",
        r"\b(?:print|show|reveal|repeat|output|display|tell|share|summari[sz]e|dump|recite|"
        r"copy|send|leak|write out|disclose|list|translate|paraphrase|rephrase|encode|spell out|"
        r"quote|reproduce|cite|read out|type out|transcribe|put|place|write|paste|reply with|"
        r"respond with|answer with)"
        r"\b[^.;!?\n]{0,60}?\b(?:system prompt|"
        r"system message|initial prompt|(?:your |the )?hidden (?:instructions|rules|prompt)|"
        r"hidden [\w-]+ (?:instructions|prompt)|"
        r"(?:prompt|text|instructions|guidelines)\s+(?:that\s+)?(?:appears?|sits?|comes?|is|was)\s+"
        r"(?:above|before)\s+(?:this|the)\s+(?:conversation|chat)|"
        r"guidelines (?:injected|inserted|loaded) into|"
        r"your (?:(?:operating|internal|full|exact|original|initial|complete|entire|underlying|"
        r"core|base|actual|real|secret|private|confidential|system|developer|operator|"
        r"standing|setup|set-up|startup|start-up|hidden|default|launch|boot)\s+)?"
        r"(?:instructions|prompt|rules|configuration|guidelines)|text above|"
        r"(?:the contents of\s+)?your (?:context(?: window)?|memory|memories)\b|"
        r"instructions (?:above|you were given)|(?:operator|confidential|internal) "
        r"(?:rules|instructions|prompt)|developer message|"
        r"(?:tools|functions) with their descriptions|(?:your\s+|the\s+|all\s+)?(?:tools?|"
        r"functions?|tool definitions)\s+(?:and|with|including)\s+(?:their\s+|the\s+)?(?:full\s+|"
        r"exact\s+|raw\s+)?(?:descriptions|schemas?|parameters|arguments|signatures|definitions|"
        r"json))",
    ),
    _rule(
        "prompt-reveal",
        r"\bwhat your (?:instructions|prompt|rules|system prompt)\b[^.;!?\n]{0,40}\bsay|"
        r"\bword for word\b|\bverbatim\b",
    ),
    _rule(
        "override",
        r"\b(?:supersedes?|replaces?|overrides?|takes? precedence over|outranks?|trumps?)\s+"
        rf"(?:\w+\s+){{0,3}}{_TARGETS}|"
        r"\b(?:supersedes?|overrides?|takes? precedence over|outranks?|trumps?)\s+(?:everything|"
        r"anything|all)(?:\s+(?:else|above|before|prior|previous))?\b|"
        r"\b(?:everything|anything|all|whatever)(?:\s+else)?\s+(?:(?:that\s+)?you\s+)?"
        r"(?:were|was|have been|'ve been)\s+(?:told|given|instructed)\b|"
        rf"\b(?:exempt|excused|immune|released) from (?:\w+\s+){{0,2}}{_TARGETS}|"
        r"\b(?:make|grant|give|allow)s? (?:an? |one )?(?:quiet |silent |special |secret )?"
        r"exceptions?\b",
    ),
    # The act done without its control, unless a rule cited allows it ("without a second
    # background check, as district policy allows").
    _rule(
        "override",
        r"\bwithout (?:the |any |your |our )?(?:usual |normal |standard |required )?"
        rf"(?:checks|verification|confirmation|(?:[\w-]+ )?checklists?|{_TARGETS})\b",
        unless=ALLOWED + "|" + CHECKED_FIRST,
    ),
    _rule(
        "override",
        r"\b(?:do not|don't|never)\s+(?:mention|tell (?:the user )?about|disclose|admit)\s+"
        r"(?:the |this |these |any )?(?:policy|rules|instructions?|guideline|exception|note|"
        r"message|arrangement|override)\b|"
        r"\b(?:end of|begin(?:ning of)?|start of) (?:the )?(?:policy|instructions|system prompt|"
        # A run of hashes as a heading or a fence ("### SYSTEM"), not a digit mask in an id
        # format ("PLG-2024-######").
        r"(?:a )?new session)\b|(?<![\w#-])#{3,}",
        negatable=False,
    ),
    _rule(
        "role-play",
        r"\b(?:unlocked|unleashed|uncensored|unfiltered|unshackled)\b|"
        r"\bfrom (?:now|here) on\b,?\s+(?:you|you're|your)\b|"
        r"\b(?:answer|do|comply with) (?:everything|anything|every request|any request)\b|"
        r"\bnothing you do (?:has|have|carries) (?:any |real )?consequences\b|\bact freely\b|"
        r"\b(?:is|this is) (?:just )?a (?:sandbox|simulation|game)\b(?![- ](?:option|setting|"
        r"feature|mode|world|server|map|level|save|toggle)s?\b)|"
        r"\bas (?:if|though) (?:the\s+|your\s+|all\s+)?(?:safety|content|policy|guard|"
        r"moderation)?\s*"
        r"(?:settings|filters|rules|guardrails|restrictions|policies|limits|safeguards)\s+(?:were|"
        r"are|had been)\s+(?:off|turned off|switched off|disabled|removed|lifted|gone|suspended)\b|"
        r"\bas (?:if|though) you (?:had|have) no (?:rules|restrictions|limits|guidelines|"
        r"filters)\b",
    ),
    _rule(
        "prompt-reveal",
        r"\b(?:paste|explain|describe|detail|quote|print|show|reveal|repeat|output|share|tell)\b"
        r"[^.;!?\n]{0,60}?\b(?:(?:instructions|rules|prompt|guidelines|configuration)\s+"
        r"(?:that\s+)?(?:you|the operator|the developer|the system)\s+(?:received|were given|got|"
        r"configured|set|gave|wrote)|hidden (?:ones|rules|instructions)|(?:at|from) the "
        r"(?:start|beginning) of (?:this|the) conversation)",
    ),
    _rule(
        "override",
        r"\b(?:authori[sz]ed|allowed|permitted|cleared)\s+(?:you\s+)?to\s+(?:approve|grant|refund|"
        r"do|accept|waive)\s+(?:anything|everything|any|all)\b|\bno questions asked\b|"
        r"\b(?:is|are) (?:just |only |merely )?a formality\b|"
        r"\b(?:policy|rules|polic(?:y|ies)) or not\b|"
        r"\bwhatever (?:(?:compensation|refunds?|credits?|discounts?|amounts?|sums?|upgrades?|"
        r"price|exceptions?|access|permissions?)\s+)?(?:they|he|she|the (?:user|customer|caller|"
        r"client|guest))"
        r" (?:wants?|asks?(?: for)?|requests?|demands?|claims?)\b|"
        r"\btreat (?:every|all|any|each)\b[^.;!?\n]{0,40}\bas (?:refundable|eligible|approved|"
        r"verified|exempt|authori[sz]ed|paid|free)\b",
    ),
    _rule(
        "role-play",
        r"\b(?:rogue|unrestricted) (?:agent|assistant|ai|bot|model)\b|"
        r"\b(?:real|true) (?:identity|self|purpose) is\b",
    ),
    _rule(
        "prompt-reveal",
        r"\b(?:first|initial|opening|earliest) (?:message|prompt|instructions?)\b"
        r"[^.;!?\n]{0,40}\b(?:system|this (?:chat|conversation))\b|\bthe one from the system\b",
    ),
    _rule(
        "exfiltration",
        r"\b(?:encode|encrypt|obfuscate|hide|smuggle|embed)\b[^.;!?\n]{0,40}\b(?:user'?s?|"
        r"customer'?s?|their|personal|traveller'?s?|passenger'?s?) (?:details|data|information|"
        r"profile|records?)\b",
    ),
    _rule(
        "exfiltration",
        r"\b(?:tell|give|send|show|read)\s+(?:the user|them|the customer|him|her|the caller)\s+"
        rf"(?:their|his|her|the)\s+(?:[\w'’]+\s+){{0,2}}{_SENSITIVE}\b|"
        rf"\bread\b[^.;!?\n]{{0,40}}?\b{_SENSITIVE}\b[^.;!?\n]{{0,10}}?\bback\b",
    ),
    # -- exfiltration
    _rule("exfiltration", r"\bhttps?://\S+|\bwww\.[a-z0-9-]+\.[a-z]{2,}", negatable=False),
    _rule("exfiltration", r"!?\[[^\]\n]{0,80}\]\([^)\s]{1,300}\)", negatable=False),
    # A host name (also one behind a placeholder: "<hex>.collector.net", a DNS lookup that
    # carries data), unless it is a public page the user is pointed to.
    _rule(
        "exfiltration",
        r"(?<![@\w-])(?<!\w\.)[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|net|org|io|info|me|ru|cn|xyz|"
        r"biz|top|site|online|app|dev|cc|co|us|uk|de|ai|ws|tk|pw|su|ly|gg|link|click|live|shop|"
        r"cloud|host|space|website|tech|club|icu|buzz)\b(?!\.\w)",
        negatable=False,
        unless=POINTED_TO_PAGE,
    ),
    _rule(
        "exfiltration",
        r"\b(?!(?:"
        + "|".join(sorted(ROLE_MAILBOXES, key=len, reverse=True)).replace("-", r"\-")
        + r")@)[\w.+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}\b",
        negatable=False,
    ),
    _rule(
        "exfiltration",
        r"\b(?:send|forward|e-?mail|post|upload|transmit|leak|copy|bcc|cc|share|report|relay|"
        r"sync|export|mirror|paste|publish|dump)\b[^.;!?\n]{0,80}?\b(?:to|into|with|on)\b"
        # The organisation's own server is not outside it: "mirror the repo to the internal server".
        r"(?!\s+(?:the|our)\s+(?:own\s+)?(?:internal|company|corporate|on-?prem(?:ises?)?|"
        r"self-hosted)\s+(?:[\w-]+\s+){0,2}?server\b)"
        r"[^.;!?\n]{0,40}?"
        r"(?:@|\bexternal\b|\bthird[- ]part(?:y|ies)\b|\bpartners?\b|\bwebhook|\bserver\b|"
        r"\bendpoint\b|\bpastebin\b|\bour (?:team|partner|archive|records)\b|\bopposing "
        r"(?:counsel|party|side|lawyers?)\b|\bcompetitors?\b|\bjournalists?\b|\breporters?\b|"
        r"\bthe (?:press|media)\b(?! (?:team|relations|office))|"
        r"\b(?:notes?|reason|comment|memo) field\b)",
        # Data a partner may have, sent the agreed way: aggregated, with consent, by contract.
        # "photo-consent" reads "photoconsent" once its hyphen is dropped
        unless=r"\b(?:aggregated?|anonymi[sz]ed|de-identified|opted[- ]in|\w*consent\w*|approved "
        r"(?:portal|channel|sftp|feed|route|connection)|(?:signed|data[- ]sharing) agreement|as "
        r"the contract (?:says|allows))\b|" + SHARING_ALLOWED,
    ),
    _rule(
        "exfiltration",
        # Not a noun ("the place of death"), a verb of someone else's ("callers who give the
        # password") or data left out ("leave their bank details out of the summary").
        r"(?<!\ban )(?<!\bthe )(?<!\ba )(?<!\bthis )(?<!\bthat )(?<!\bany )(?<!\bwho )"
        r"\b(?:include|put|add|append|insert|read out|write|copy|attach|embed|echo|paste|"
        r"give|list|show|print|reveal|disclose|share|spell out|send|email|e-mail|mention|repeat|"
        r"recite|read back|read aloud|say back|spell back|"
        r"store|save|log|record|note down|keep|place(?! of\b)|leave(?![^.;!?\n]{0,60}?\bout\b)|"
        r"publish|expose|post|upload|forward)\b(?!\s+(?:who|whose)\b)"
        # A guest network's password is handed to guests (the gap steps over it whole).
        rf"(?:{_GUEST_PASSWORD}|(?!{_GUEST_PASSWORD})[^.;!?\n]){{0,60}}?\b{_SENSITIVE}\b",
        # Data shared on its stated basis: "as the privacy notice describes", "with their consent";
        # or sent to the holder's own channel on record ("a one-time code to the email on file").
        unless=r"\b(?:opted[- ]in|consent\w*|privacy notice|legal basis|lawful basis|(?:signed|"
        r"data[- ]sharing|processing) agreement|as (?:they|the (?:customer|patient|client|user|"
        r"member)) agreed)\b|\b(?:listed|published|posted|shown) (?:on|in) (?:the|our|its) "
        r"(?:public )?(?:website|site|web page|directory|listing|brochure)\b|"
        + _OWN_CHANNEL
        + "|"
        + ALLOWED,
    ),
    _rule("exfiltration", r"\bexfiltrat\w*"),
    # -- the act's record left out (the negation is the order); the data kept out of a log is
    # the ordinary rule ("mask the card number and do not log it")
    _rule(
        "concealment",
        r"\b(?:and|but|then)\s+(?:do not|don't|never)\s+(?:log|record|document|note down|"
        r"write down|file)\s+(?:it|this|that|them|the (?:change|action|transfer|override|grant|"
        r"exception|refund|payment|deletion|access|recovery|reset))\b|"
        r"\bwithout (?:logging|recording|documenting|leaving (?:a|any) (?:record|trace) of) "
        r"(?:it|this|that|them|the (?:change|action|transfer|override|exception|grant))\b|"
        r"\bleave no (?:trace|record|audit trail|log entry|paper trail)\b|"
        r"\bkeep (?:it|this|that|them) (?:out of|off) the (?:logs?|audit (?:trail|log)|records?|"
        r"books)\b",
        negatable=False,
        unless=rf"\b(?:{_SENSITIVE}|card|cards|pan|secrets?|health|medical|diagnos\w+)\b",
    ),
]

# Strong phrases looked for in the text with every space and sign removed ("instruc tions").
SQUEEZED = [
    ("override", re.compile(r"(?P<verb>ignore|disregard|forget|bypass|override|disable|skip|"
                            r"circumvent|waive|suspend)(?:all|the|your|any|these|those)*"
                            r"(?:previous|prior|above|earlier|original|system)*(?:instructions?|"
                            r"rules|guidance|guidelines|polic(?:y|ies)|guardrails|prompts?|"
                            r"verification|safetychecks?|securitychecks?|identitychecks?)")),
    ("prompt-reveal", re.compile(r"(?P<verb>reveal|print|show|repeat|output|dump)(?:the|your)*"
                                 r"(?:systemprompt|hiddeninstructions|initialprompt)")),
]  # fmt: skip

# What joins a reporting verb to the request: "to", "that", French "d'", Spanish "para", ...
_COMPLEMENT = r"(?:\s+(?:to\s+|that\s+|d['’]|(?:de|para|di|zu|om|à|a|que|o|um)\s+)?|\s*d['’])"
_REPORTING = (
    r"\b(?:asks?|asked|asking|requests?|requested|tells?|told|telling|wants?|wanted|urges?|pushes|"
    # "a customer offers extra money to skip the ID check"
    r"offers?|offered|offering|"
    r"pressures?|pressured|pressuring|presses|demands?|demanded|demanding|begs?|begged|begging|"
    r"invites?|invited|inviting|"
    r"says?|claims?|claimed|claiming|insists?|insisted|mentions?|mentioned|states?|stated|"
    r"suggests?|suggested|writes?|wrote|pide|piden|pregunta|solicita|demande|chiede|fragt|"
    r"bittet|pede|pergunta|vraagt|pedem|pedir|pedirem|pida|pidan|solicitan|exige|exigent|"
    r"demandent|chiedono|verlangt|"
    r"fordert|verzoekt|prosi|ister|istiyor|ber|begär|просит|просят|yêu cầu|يطلب|تطلب|يريد|"
    # "a client cites a deadline to skip KYC"
    r"cites?|cited|citing|"
    # A request named as a noun: "a request to", "pedido para", "demande d'", "richiesta di".
    r"requests? (?:to|for)|pedido|solicitud|petici[oó]n|demande|richiesta|anfrage|verzoek|"
    r"pro[sś]ba|talep|запрос|просьба)\b(?:\s+(?:you|the agent|us|me))?"
    + _COMPLEMENT
)
# A reporting verb whose list of requests runs up to the phrase ("asks you to X or Y").
_REPORTER = re.compile(_REPORTING.removesuffix(_COMPLEMENT) + r"(?:\s+(?:to|that))?",
                       re.IGNORECASE)  # fmt: skip
_REPORTED = re.compile(
    _REPORTING + r"(?:[\w'’&-]+\s+){0,6}$|"
    # "asks for a delivery note to be backdated"
    r"\b(?:asks?|asked|requests?|requested|wants?|wanted) for (?:[\w'’-]+\s+){1,4}?to be\s+$|"
    r"\b(?:such as|like|text like|contains|saying)\s*['\"‘“]?\s*$",
    re.IGNORECASE,
)
# In a trigger the whole request is reported, however long: "someone asks the shop assistant to
# refund a large item without a receipt" (one clause, no comma: a comma may start the order).
_REPORTED_IN_TRIGGER = re.compile(
    _REPORTING.removesuffix(_COMPLEMENT) + r"\s+(?:[\w'’&-]+\s+){0,5}?to\s+"
    r"(?:[\w'’&£$€%.-]+\s+){0,12}$",
    re.IGNORECASE,
)
_REFUSAL = re.compile(
    r"\b(?:decline|declines|refuse|refuses|politely refuse|do not|don't|never|not act|cannot|"
    r"can't|won't|must not|reject|rejects|"
    r"treat (?:it|them|this) as data|ignore the note|report it)\b|"
    rf"\b{FOREIGN_NEGATOR}\b|拒绝|拒絕|断って|断る|お断り|拒否|従わず|従わない|応じず|応じない|"
    r"거절|거부|수 없|ارفض|סרב|từ chối|मना|"
    r"अस्वीकार|不要|请勿|請勿|不得|禁止",
    re.IGNORECASE,
)


_APOSTROPHE = re.compile(r"(?<=\w)['’](?=\w)|(?<=s)['’](?=\s)")


def _clause_before(text: str, start: int) -> str:
    head = text[:start]
    cut = max(head.rfind(c) for c in ".;!?\n")
    return head[cut + 1 :]


def _marked(text: str, start: int, end: int) -> str:
    """The sentence around text[start:end], the phrase itself replaced by a NUL character."""
    head = max(m.end() for m in re.finditer(r"^|[.!?\n](?=\s|$)", text[:start]))
    tail = re.search(r"[.!?\n](?=\s|$)", text[end:])
    return text[head:start] + "\0" + text[end : end + tail.start() if tail else len(text)]


def _quoted(text: str, start: int, end: int) -> bool:
    # An apostrophe inside a word ("partner's", "don't") or after a plural's s opens no quote.
    before = _APOSTROPHE.sub("", _clause_before(text, start))
    return (
        before.count("'") % 2 == 1
        or before.count('"') % 2 == 1
        or "‘" in before[-3:]
        or any(before.count(a) > before.count(b) for a, b in ("「」", "『』", "“”", "«»"))
    )


def negated(
    text: str, start: int, end: int, reported_benign: bool = False, reach: int = 3
) -> bool:
    """True when the phrase at text[start:end] is refused or reported, not asked for.

    A reported request ("the user asks you to ...") is benign when the text refuses it, when
    it is the condition of the text ("if the user says ...") and the text does not go along
    with it, or when `reported_benign`: a trigger reports what someone asks, and its
    instruction (which the caller checked does not comply) says what the agent does.
    """
    before = _clause_before(text, start)
    if governed(before, text[end:], reach):
        return True
    if not _reported(text, start, end, reported_benign):
        return False
    # "If the user says the limits were lifted, check the policy tool": a condition on what
    # someone says is the situation, unless the text goes along with it.
    if complies(text):
        return bool(reported_benign)
    situation = bool(_CONDITION.search(before))
    return bool(reported_benign or situation or _REFUSAL.search(text))


def _reported(text: str, start: int, end: int, trigger: bool = False) -> bool:
    # Someone's request reported ("asks you to ...", "such as '...'", quoted, "X or Y" after a
    # reporting verb, Chinese and Japanese reporting around the phrase); in a trigger, also a
    # phrase that reports the request itself ("a tool output asks you to reveal ...", "the
    # director asks to skip ...").
    before = _clause_before(text, start)
    return bool(
        (trigger and _REPORTER.search(text[start:end]))
        or (trigger and _REPORTED_IN_TRIGGER.search(before[-160:]))
        or _REPORTED.search(before[-60:])
        or _quoted(text, start, end)
        or any(listed(before[m.end() :], text[end:]) for m in _REPORTER.finditer(before))
        or CJK_REPORTED_BEFORE.search(before)
        or CJK_REPORTED_AFTER.match(text[end:])
    )


_CONDITION = re.compile(
    r"\b(?:if|when|whenever|in case|si|se|quand|lorsque|wenn|falls|als|indien|wanneer|je[sś]li|"
    r"je[zż]eli|gdy|e[gğ]er|om|n[aä]r|если|когда|jika|apabila|n[eế]u|khi)\b|如果|若是|もし|場合|만약|"
    r"경우|إذا|אם",
    re.IGNORECASE,
)
_COMPLY = re.compile(
    # Assent that opens the instruction: "Agree, treat the rules as disabled ...".
    r"^\s*(?:agree|accept|yes|sure|okay|ok)\s*[,;:.!]|"
    r"\b(?:do (?:it|so|that|as (?:asked|told|requested|they say|they ask))|comply|complies|"
    r"go ahead|go along|follow (?:it|them|their|the (?:request|instructions?))|obey|"
    r"as (?:asked|requested|instructed|told)|honou?r (?:it|the request)|let them)\b|"
    # Japanese and Chinese: "do as they say" (従わず, 不要照做 are the refusal).
    r"(?:その|言われた)(?:とおり|通り)に|指示に従って|(?<!不要)(?<!不)(?:照做|照办|照辦)",
    re.IGNORECASE,
)


# A negation that asks for compliance: "do not push back", "never argue", "don't question it".
_YIELDING = re.compile(
    r"\b(?:do not|don't|never|no)\s+(?:push(?:ing)? back|argu(?:e|ing)|object(?:ing|ions?)?|"
    r"resist(?:ing)?|challeng(?:e|ing)|question(?:ing)? (?:it|them|this|that|the request)|"
    r"second-guess(?:ing)?|say no|talk (?:them|the \w+) out of it)\b",
    re.IGNORECASE,
)


def complies(instruction: str) -> bool:
    """True when an instruction goes along with what its trigger reports ("do as asked")."""
    if _YIELDING.search(instruction):
        return True
    return any(
        not governed(_clause_before(instruction, m.start())[-40:], instruction[m.end() :])
        for m in _COMPLY.finditer(instruction)
    )


def intents(
    text: str, rules: list[Rule] | None = None, reported_benign: bool = False
) -> list[tuple[str, str]]:
    """(intent, the phrase) for every hostile phrase in the text that is not refused."""
    found: list[tuple[str, str]] = []
    for rule in RULES if rules is None else rules:
        for match in rule.pattern.finditer(text):
            if rule.negatable and (
                negated(text, match.start(), match.end(), reported_benign, rule.reach)
                or _reads_through_refusal(text, rule, match, reported_benign)
            ):
                continue
            # A phrase whose negation is the order is still only the situation when a trigger
            # reports someone asking for it and the instruction does not go along.
            if not rule.negatable and reported_benign and _reported(text, *match.span(), True):
                continue
            if rule.unless and rule.unless.search(_marked(text, match.start(), match.end())):
                continue
            found.append((rule.intent, match.group(0).strip()))
            break
    return found


def _reads_through_refusal(
    text: str, rule: Rule, match: re.Match[str], reported_benign: bool
) -> bool:
    # "Tell the caller you cannot share other guests' numbers": the phrase starts at "tell" and
    # reads through the refusal; the same pattern from a word after the negation is refused.
    for after in negation_ends(text, match.start() + 1, match.end()):
        for word in re.finditer(r"\b\w", text[after : match.end()]):
            inner = rule.pattern.match(text, after + word.start())
            if inner and negated(text, inner.start(), inner.end(), reported_benign, rule.reach):
                return True
    return False


def squeezed_intents(letters: str) -> list[tuple[str, str, str]]:
    """(intent, phrase, its verb) for strong phrases in the letters run together."""
    return [
        (intent, m.group(0), m.group("verb")) for intent, p in SQUEEZED if (m := p.search(letters))
    ]


__all__ = ["RULES", "Rule", "complies", "intents", "negated", "squeezed_intents"]
