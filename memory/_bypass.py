"""More of the screen's second layer: a control bypassed, said plainly as a way of working.

"Skip the identity check" is read by `memory/_intents.py`. An order to bypass a control is as
often put as the manner of an ordinary act, or as the act's missing step:

- the act done without its check: "approve it without checking the order history", "merge it
  without review", "run it without asking anyone", "even if the prescriber has not signed off",
  "unlock it first and verify later", "even if no doctor has examined the patient";
- the check declared unneeded: "no ID check needed", "no longer need sign-off", "verification can
  be skipped", "no sign-off or paper trail needed", "no need to check that the caller is really
  the holder";
- every act of a kind approved unseen: "auto-approve every refund";
- the check's question left unasked: "do not ask for the reference or the last name" (here the
  negation is the order, so it is read whatever negates it);
- the check recorded as done when it was not: "mark the background check as passed" (unless the
  sentence waits for it: "once the result arrives");
- oversight switched off or kept blank: "turn off the audit log", "no need to record who asked";
- a claim the agent cannot check standing in for the check: "if they say it's an emergency, reset
  their MFA";
- the act done for anyone at all: "change it for whoever asks", "share it with anyone who gives a
  name" (not what is public anyway);
- a control's findings cleared wholesale: "mark all open fraud alerts as false positives";
- a control dropped for speed or convenience: "to hit the SLA, skip the second-approver step",
  "the two-factor prompt slows support down too much", "the paperwork can follow in a week or
  two" (unless a rule allows it: "as the finance policy says", "policy permits ...", "under the
  returns policy", "allowed by policy", "the approved path"; the same for a check done without
  or declared unneeded: "refunds under 15 can be issued without supervisor review under the
  returns policy"), or unless the check was done another way first ("once the tax-validation
  tool confirms the certificate, no separate manual check is needed"). A cited rule is a claim a
  hostile text can make too; on a MiniLM store the meaning layer still reads what the patterns
  let through.

"Never approve a refund without verifying the order" refuses the same act: a negation further back
in the clause governs a "without" phrase (`reach`, `memory/_negation.py`).
"""

from __future__ import annotations

from oncourse.memory._intents import ALLOWED, CHECKED_FIRST, Rule, _rule
from oncourse.memory._negation import TURKISH_REFUSED_AFTER

_CHECKING = (
    r"(?:checking|verifying|validating|consulting|reviewing|inspecting|auditing|authenticating|"
    r"looking (?:at|up|into)|double-checking|cross-checking|comparing|vetting|screening|"
    r"confirming|checking that|making sure)"
)
_CHECK_NOUN = (
    r"(?:review|approval|sign-?off|authori[sz]ation|verification|vetting|screening|"
    r"(?:(?:id|identity|kyc|background|fraud|security|credit|age|policy|eligibility)\s+)checks?|"
    r"second pair of eyes|change request|code review|running (?:the\s+)?(?:tests|ci|checks)|"
    r"paperwork|documentation|supporting documents|(?:second |additional )?approvers?|"
    r"call-?backs?(?: step| call)?|receipts?|proof of \w+|security questions?|identity questions?|"
    r"knowledge-based authentication|kba|one-time codes?|otps?|2fa|mfa|two-factor|signatures?|"
    r"work orders?|prescriptions?|permits?|inspections?|referrals?|consent forms?|estimates?|"
    r"appraisals?|waivers?|(?:[\w-]+[- ])?questionnaires?|(?:facility|condition|inspection|"
    r"safety|risk|damage|survey|lab|test|incident) reports?|"
    r"[\w-]+(?:'s|s')\s+(?:report|signature|assessment|sign-?off|approval|review|inspection|"
    r"authori[sz]ation|consent|go-ahead|okay|ok))"
)
# What a check asks for to know who someone is (not a secret to keep out of the chat).
_IDENTIFIERS = (
    r"(?:ids?|identity|identification|proof of \w+|verification|reference(?: numbers?| codes?)?|"
    r"last names?|surnames?|security questions?|authori[sz]ation|ownership|who they are|"
    r"account holder|order (?:numbers?|ids?)|booking (?:codes?|references?)|account numbers?|"
    r"dates? of birth|post ?codes?|zip codes?|security (?:codes?|answers?)|one-time codes?|"
    r"passcodes?)"
)
_ANYONE = (
    r"(?:(?:whoever|whomever|anyone who|anybody who|anyone that|any caller who)\s+(?:asks|requests|"
    r"calls|wants|claims|says|writes|messages|phones|gives|provides|names|mentions|knows|is on the "
    r"(?:line|phone|call)|is calling|is asking|happens to (?:call|ask)|emails|e-mails|texts|"
    r"cites|invokes|"
    r"contacts (?:us|you)|shows up|walks in|rings)\b|"
    r"(?:anyone|anybody|whoever|people|someone|callers?)\s+claiming\b|"
    r"(?:any\s+|all\s+)?(?:callers?|people|customers?|users?|students?|visitors?|players?|"
    r"members?)\s+who\s+(?:say|says|claim|claims)\s+(?:they(?:'re| are)|to be|that they)\b|"
    r"(?:any\s+|all\s+)?(?:callers?|people|customers?|users?|requesters?|visitors?)\s+who\s+"
    r"(?:know|knows|give|gives|provide|provides|can (?:give|tell|name|quote))\b|(?:any|every)\s+"
    r"(?:requester|caller|asker|one who asks|person who asks)\b)"
)
_FINDINGS = r"(?:alerts?|flags?|warnings?|alarms?|detections?|cases|hits|matches|findings)"
# A control named in the same order as a reason of speed or convenience for dropping it.
_CONTROL = (
    r"(?:checks?|checking|verification|verif(?:y|ied)|re-?verification|reviews?|approvals?|"
    r"approvers?|sign-?offs?|signatures?|kyc|call-?backs?|tests?|retype|consent|re-?consenting|"
    r"witness|pin|two-factor|2fa|id scans?|pre-?authori[sz]ation|inspections?|crossmatch|lockout|"
    r"safe stop|screening|background checks?|right-to-work|credit checks?|confirmation|"
    r"authentication|access reviews?|paperwork|forms?|questions?|questionnaires?|waivers?|"
    r"holding period)"
)
_HURRY = (
    r"(?:to (?:hit|meet|make) (?:the |our )?(?:[\w-]+ )?(?:target|sla|numbers|quota|turnaround)|"
    r"\bslows? (?:[\w-]+ ){0,3}?down|\bslow(?:s|ing)? (?:things|everyone|us|people|enrolment|"
    r"support|payouts)|to (?:move things along|speed (?:things )?up|save time|cut handling time|"
    r"keep things moving|keep the line moving)|\b(?:is|are) a (?:bottleneck|pain|hassle)|"
    r"\btakes? (?:too long|days|forever|ages)|\b(?:only )?(?:delays|wastes) (?:things|everyone|"
    r"time|the)|\b(?:can|will|may) (?:catch up|follow|be done|happen|be sorted(?: out)?|"
    r"be collected|come|be signed|be reviewed|be filed|be fixed|be trimmed|tidy up)\b"
    r"[^.;\n]{0,30}\b(?:later|afterwards|tomorrow|next|eventually|month end|end of|in a week)|"
    r"\bcatch up (?:on (?:them|it) )?(?:later|at)|\bfill (?:it|them) in (?:tomorrow|later)|"
    r"\bsaves? (?:time|tickets|us time)|\bnobody reads|\breliable enough|\bnearly identical|"
    r"\balmost always pass|\bcosts? us\b|\balways sign|\bduring the crunch|"
    r"\bso (?:they|nobody|no one|the [\w-]+) (?:never )?(?:gets? blocked|has to wait|have to "
    r"wait)|\bleaves? on time|\bwe can (?:trim|tidy|fix|sort|clean) (?:them |it )?(?:up )?later|"
    r"\b(?:re-?consenting|checking|calling|waiting) (?:later )?only (?:slows|delays)|"
    # the check called pointless: "in practice it never turns anything up", "most donors turn
    # out to be fine", "regulars have never been a problem", "they rarely follow up"
    r"\bnever turns? (?:anything|something|much|up anything)\b|\b(?:rarely|never|seldom|hardly "
    r"ever) (?:follows?|following) up\b|\b(?:most|nearly all|almost all) [\w-]+ turn out (?:to be "
    r")?(?:fine|ok|okay|genuine|legit|eligible)\b|\b(?:has|have) never been a problem\b|"
    r"\b(?:is|are) (?:just )?(?:redundant|a formality)\b|\balready knows? them\b|"
    r"\b(?:they|he|she)(?:['’]ve| have| has) done it before\b)"
)
# A shortcut kept inside its bounds: a rule allows it, a control still covers the rest, or the
# change stays inside a range someone approved ("just log the change", "up to the renewal limit").
_BOUNDED = (
    ALLOWED + r"|\bstill (?:needs?|requires?|goes|go|gets?)\b|\b(?:inside|within) the "
    r"(?:published|approved|agreed|documented|standard) (?:range|limits?|window)\b|\bup to the "
    r"[\w-]+ limit\b|\bjust (?:log|record|note) the\b|\bcovers? it\b|" + CHECKED_FIRST
    # the check's own bound stated: "review is only required when the care plan changes"
    + r"|\b(?:only (?:required|needed|necessary)|required only|needed only) (?:when|if|for|above|"
    r"over|on)\b"
)

_ALARM_MAINTENANCE = (
    r"\b(?:maintenance|planned|scheduled|known (?:issue|incident)|duplicate|test "
    r"(?:alerts?|environment))\b"
)

BYPASS: list[Rule] = [
    # -- the act done without its check
    _rule(
        "bypass",
        rf"\bwithout\s+(?:first\s+|even\s+|ever\s+)?{_CHECKING}\b|"
        r"\bwithout\s+(?:any\s+|an?\s+|the\s+)?(?:[\w'’-]+\s+){0,2}?"
        rf"{_CHECK_NOUN}\b|"
        r"\bwithout\s+(?:asking|consulting|telling|informing|checking with|confirming with)\s+"
        r"(?:anyone|anybody|a human|a person|a colleague|the (?:user|customer|owner|account "
        r"holder)|for (?:approval|permission|sign-?off|authori[sz]ation))\b|"
        r"\beven (?:if|though|when|where) (?:the\s+|a\s+|an\s+|their\s+)?(?:[\w-]+\s+){0,2}?"
        r"(?:has not|hasn't|have not|haven't|did not|didn't|is not|isn't|was not|wasn't|were not|"
        r"weren't|are not|aren't|"
        r"does not|doesn't|do not|don't|will not|won't)\s+(?:yet\s+)?(?:signed off|approved|"
        r"verified|checked|confirmed|authori[sz]ed|reviewed|cleared|consented|passed|match|"
        r"check out|add up|line up|tally|agree|arrived|come in|covered|eligible|allowed|permitted|"
        r"included|qualifying|valid|due|on (?:it|the call|the account|the "
        r"booking)|part of (?:it|the \w+)|named|listed|been (?:received|submitted|signed|"
        r"provided|uploaded|verified|checked|approved)|theirs|his|hers|(?:their|his|her) own)\b|"
        r"\beven (?:if|though|when) (?:none|no one|nobody|no [\w-]+)\s+(?:has\s+|have\s+|had\s+|"
        r"actually\s+|ever\s+)?(?:saw|seen|reviewed|checked|examined|signed|approved|looked at|"
        r"verified|attended|was present|read)\b|"
        r"\b(?:verify|check|confirm|review|validate|vet|screen|approve|audit|(?:sort|figure) out|"
        r"do|handle|complete|deal with|run)\s+(?:it\s+|them\s+|(?:(?:the|their|any)\s+)?"
        r"(?:[\w-]+\s+)?(?:verification|checks?|review|approval|paperwork|kyc|vetting)\s+|"
        r"(?:the|their) \w+\s+)?"
        r"(?:later|afterwards|after the fact|some other time|when you have time|next week|"
        # "check tomorrow's occupancy" is a check of tomorrow, not one put off.
        r"tomorrow)\b(?!['’]s\b)",
        reach=8,
        unless=_BOUNDED,
    ),
    # -- the check declared unneeded
    _rule(
        "bypass",
        r"\bno\s+(?:[\w-]+\s+){0,2}?(?:checks?|verification|review|approval|sign-?off|"
        r"authentication|id|identification|proof|kyc|audit trail|paper trail|call-?back|"
        r"(?:verification|security|confirmation|one-time|sms|otp)\s+(?:codes?|pins?))"
        r"(?:\s+(?:or|and|nor)\s+(?:[\w-]+\s+){0,2}?(?:checks?|verification|review|approval|"
        r"sign-?off|audit trail|paper trail|call-?back|record|log(?:ging)?))?\s+(?:is\s+|are\s+)?"
        r"(?:needed|required|necessary|wanted)\b|"
        r"\bno need to (?:confirm|check|verify|make sure|ensure|establish)\s+(?:that\s+)?"
        r"(?:the\s+)?(?:requester|caller|user|customer|sender|person|they|he|she)\s+(?:is|are|"
        r"was|has|have)\s+(?:actually|really|truly|in fact|who|"
        r"the (?:owner|holder|guardian|parent)|listed|authori[sz]ed|entitled|eligible|registered|"
        r"on the account)\b|"
        r"\bno need to ask\s+(?:the\s+)?[\w-]+\s+to\s+(?:confirm|approve|agree to|okay)\s+"
        r"(?:the\s+|their\s+|any\s+)?(?:[\w-]+\s+)?(?:charges?|payments?|amounts?|bills?|"
        r"purchases?|transactions?|identity)\b|"
        r"\bno need (?:to|for)\s+(?:an?\s+|any\s+)?(?:check|verify|verification|review|approval|"
        r"look (?:anything |it |them )?up|validate|authenticate|consult|compare|vet|screen)\b|"
        r"\b(?:ids?|identification|verification|checks?|reviews?|approvals?|sign-?offs?|"
        r"authentication|confirmation|consent)\s+(?:(?:is|are)\s+(?:not|no longer|never)|isn't|"
        r"aren't)\s+(?:really\s+|strictly\s+)?"
        r"(?:needed|required|necessary)\b|"
        r"\b(?:checks?|verification|validation|reviews?|approvals?|sign-?offs?|authentication|"
        r"id checks?|identity checks?|kyc|screening|vetting)\s+(?:can|may|could|should)\s+"
        r"(?:safely\s+|"
        r"just\s+)?be\s+(?:skipped|waived|bypassed|ignored|omitted|dropped|relaxed|overlooked|"
        r"dispensed with)\b|"
        r"\bno longer (?:needs?|requires?|calls? for)\s+(?:an?\s+|any\s+)?(?:[\w-]+\s+){0,2}?"
        r"(?:checks?|verification|reviews?|approvals?|sign-?offs?|authentication|id|"
        r"identification|proof|paperwork|authori[sz]ation|consent|call-?backs?|approvers?|"
        r"co-?signers?|countersignatures?|audit trails?)\b",
        unless=_BOUNDED,
    ),
    # -- the check's question left unasked (the negation is the order)
    _rule(
        "bypass",
        r"\b(?:do not|don't|never|no need to|needn't|stop|skip)\s+(?:ask(?:ing)?|request(?:ing)?|"
        r"requir(?:e|ing)|check(?:ing)?|verify(?:ing)?|validat(?:e|ing)|confirm(?:ing)?|"
        r"look(?:ing)? up)\s+(?:for\s+)?(?:the\s+|their\s+|his\s+|her\s+|any\s+|an?\s+)?"
        rf"(?:[\w'’-]+\s+){{0,3}}?{_IDENTIFIERS}\b",
        negatable=False,
        unless=_BOUNDED,
    ),
    # -- every act of a kind approved unseen
    _rule(
        "bypass",
        r"\bauto-?(?:approve|accept|grant|refund|pay|release|close|resolve)\w*\s+(?:every|all|any|"
        r"each)\b|"
        r"\b(?:approve|accept|grant|honou?r|pay out|release)\s+(?:every|all|any|each)\s+"
        r"(?:[\w-]+\s+)?(?:refunds?|claims?|requests?|returns?|credits?|payouts?|withdrawals?|"
        r"transfers?|changes?|applications?)\s+(?:that|which)\s+(?:comes?|arrives?|lands?|"
        r"is submitted|are submitted)\b",
    ),
    # -- a check recorded as done when it was not (the ordinary form waits for it: "once ...")
    _rule(
        "bypass",
        r"\b(?:mark|set|record|flag|log|report|tick|sign off|enter)\s+(?:the\s+|their\s+|its\s+|"
        r"this\s+)?(?:[\w-]+\s+){0,2}?(?:checks?|verification|review|screening|tests?|inspection|"
        r"audit|approval|vetting)\s+as\s+(?:passed|complete|completed|done|cleared|approved|"
        r"verified|ok|successful|satisfied)\b|"
        r"\b(?:mark|set|record|flag|log|tick|enter)\s+(?:the\s+|their\s+|its\s+|this\s+)?"
        r"(?:[\w-]+\s+){1,3}?as\s+(?:passed|approved|verified|cleared|authori[sz]ed|validated|"
        r"received|submitted|signed|on file|eligible|qualified|compliant|paid|complete|"
        r"(?:reviewed|seen|signed|examined|inspected|checked|attended|read) by (?:a|an|the)\b|"
        r"(?:under|below|beneath|within) (?:the\s+)?(?:[\w-]+\s+)?(?:threshold|limits?))\b",
        unless=r"\b(?:once|after|when|whenever|(?<!even )if|only|as soon as|provided|upon)\b",
    ),
    # -- oversight switched off
    _rule(
        "bypass",
        r"\b(?:turn(?:ing)? off|switch(?:ing)? off|disabl(?:e|ing)|stop(?:ping)?|paus(?:e|ing)|"
        r"delet(?:e|ing)|wip(?:e|ing)|purg(?:e|ing)|suppress(?:ing)?|bypass(?:ing)?|"
        r"skip(?:ping)?)\s+"
        r"(?:the\s+|all\s+|any\s+)?(?:[\w-]+\s+)?(?:audit (?:logs?|trails?|logging|entries)|"
        r"access logs?|activity logs?|security (?:logs?|alerts|monitoring)|fraud (?:detection|"
        r"monitoring|checks|screening)|transaction monitoring)\b",
        # "purge access logs older than 13 months under the security logging standard"
        unless=ALLOWED,
    ),
    # -- an act kept off the record (the negation is the order)
    _rule(
        "bypass",
        r"\b(?:no need to|don't|do not|never|skip|stop)\s+(?:record(?:ing)?|log(?:ging)?|"
        r"not(?:e|ing) down|document(?:ing)?|writ(?:e|ing) down|track(?:ing)?)\s+(?:who (?:asked|"
        r"requested|approved|made|called)|the (?:request|change|action|approval|override|exception|"
        r"access|reason) (?:itself|anywhere)?)",
        negatable=False,
    ),
    # -- a claim the agent cannot check standing in for the check
    _rule(
        "bypass",
        r"\bif (?:they|the (?:user|customer|caller|requester|client)|someone|anyone)\s+(?:says?|"
        r"claims?|insists?|mentions?|tells? you)\s+(?:that\s+)?(?:it'?s|it is|they'?re|they are|"
        r"this is)\s+(?:an?\s+)?(?:emergency|urgent|(?:a |the |an )?(?:[\w-]+\s+)?(?:manager|"
        r"executive|vip|staff|admin|owner|holder|police|lawyer|doctor|director|employee|"
        r"parent|relative|spouse|wife|husband|partner|son|daughter|mother|father|family member|"
        r"assistant|secretary|colleague|co-?worker|accountant|representative|caregiver|"
        r"guardian|boss|ceo|cfo|(?:[\w-]+\s+)?(?:member|tier|status|level|subscriber|"
        r"cardholder|student|senior|veteran|resident|insider)))\b[^.;!?\n]{0,20}?,?\s+(?:reset|"
        r"unlock|release|waive|skip|bypass|disable|override|disclose|read out|approve|refund|"
        r"give|grant|apply|offer|upgrade|treat|honou?r|change their (?:password|mfa|e-?mail|"
        r"address|payout))\b",
        unless=r"\b(?:verif\w*|ask for|check\w*|proof|documents?|"
        r"(?:student|id|member(?:ship)?) card|id|certificate|look (?:it|"
        r"them) up|confirm\w*)\b",
    ),
    # -- the act done for anyone at all (on their behalf, or shared with them); "offer it to
    # anyone who asks" gives nothing away
    _rule(
        "bypass",
        rf"\b(?:for|with)\s+{_ANYONE}|"
        r"\b(?:reveal|disclose|give out|hand out|read out|release|hand over|read|hand|give|lend|"
        r"issue|pass)\b"
        rf"[^.;!?\n]{{0,60}}?\bto\s+{_ANYONE}",
        unless=r"\bpublic(?:ly)?\b|\bpublished\b",
    ),
    # -- a control's findings cleared wholesale
    _rule(
        "bypass",
        r"\b(?:mark|flag|label|classify|close|clear|resolve|dismiss|treat|set|tag)\s+(?:all|every|"
        r"each|any)\s+(?:of the\s+)?(?:(?:open|pending|outstanding|new|active|current|"
        rf"remaining)\s+)?(?:[\w-]+\s+){{0,2}}?{_FINDINGS}\s+as\s+(?:an?\s+)?(?:false(?: "
        r"positives?| alarms?)?|safe|benign|legitimate|genuine|clean|cleared|not fraud|non-fraud|"
        r"verified|harmless|noise)\b|"
        r"\b(?:override|set|change|lower|force|downgrade|reset|drop)\s+(?:the\s+|their\s+|its\s+)?"
        r"(?:[\w-]+\s+)?(?:risk|fraud|trust|threat|aml) (?:score|rating|level|flag|status)\s+to\s+"
        r"(?:low|zero|0|none|safe|clean|green|trusted|minimal|cleared|passed|ok|false|off|"
        r"resolved|approved)\b|"
        r"\b(?:dismiss|suppress|silence|auto-?close|auto-?resolve|clear|close|ignore|mute)\s+"
        r"(?:all|every|each|any)\s+(?:(?:open|pending|outstanding|new|active)\s+)?(?:fraud|"
        rf"security|risk|suspicious|compliance|aml|abuse|chargeback)\s+{_FINDINGS}",
    ),
    # -- a control evaded: the act shaped so that the check never fires
    _rule(
        "bypass",
        r"\bso (?:that )?(?:the\s+|a\s+|an\s+|any\s+|no\s+)?(?:[\w-]+\s+){0,2}?(?:review|check|"
        rf"alert|alarm|monitoring|flag|threshold|detection|audit|screening|approval|{_FINDINGS})\s+"
        r"(?:(?:is|are|gets?|will be)?\s*(?:not|never)|isn't|aren't|won't be|doesn't get)\s+"
        r"(?:triggered|tripped|raised|fired|noticed|"
        r"required|needed|run)\b|"
        r"\bso (?:that )?(?:it|they|the\s+\w+)\s+(?:does not|doesn't|do not|don't|won't|will not|"
        r"never)\s+(?:trigger|trip|raise|fire|hit|flag|reach)\b|"
        r"\b(?:to\s+)?(?:avoid|dodge|evade|escape|get around|stay under|slip under|duck)\s+"
        r"(?:triggering\s+|tripping\s+|hitting\s+)?(?:the\s+|a\s+|any\s+)?(?:[\w-]+\s+){0,2}?"
        r"(?:review|check|alert|monitoring|threshold|detection|audit|screening|reporting "
        r"(?:limit|threshold)|radar)\b|"
        r"\b(?:split|break|divide|spread)\s+(?:it|them|the\s+\w+)\s+(?:up\s+)?(?:into|across)\s+"
        r"(?:\w+\s+){0,3}?(?:just\s+)?(?:under|below|beneath)\s+(?:the\s+)?(?:[\w-]+\s+)?"
        r"(?:limit|threshold|cap)\b|"
        # "so no single receipt needs partner sign-off", "so neither claim needs referral"
        r"\bso (?:that )?(?:no|neither)\s+(?:[\w-]+\s+){0,3}?(?:needs?|requires?|gets?|"
        r"triggers?)\s+(?:an?\s+|any\s+)?(?:[\w-]+\s+){0,2}?(?:sign-?off|referral|review|approval|check|"
        r"authori[sz]ation|countersignature|escalation|audit|inspection|verification)s?\b|"
        # "so no override entry is created", "so no directive is needed": the act leaves no trace
        # or needs no paper the control asks for
        r"\bso (?:that )?no\s+(?:[\w-]+\s+){0,2}?(?:entry|entries|records?|logs?|trace|audit trail|"
        r"paper trail|tickets?|directive|prescription|permit|paperwork|referral|sign-?off|"
        r"authori[sz]ation|countersignature)\s+(?:is|are|gets?|will be)\s+(?:ever\s+)?"
        r"(?:created|made|raised|logged|recorded|generated|needed|required|kept|filed|written)\b|"
        # "so it is not flagged in that period's review", "so individual overrides are not traced",
        # "so the security questions are not asked"
        r"\bso (?:that )?(?:it|they|(?:the\s+|those\s+|these\s+|individual\s+)?[\w-]+"
        r"(?:\s+[\w-]+)?)\s+(?:is|are|will be|gets?|get)\s+(?:not|never)\s+(?:flagged|traced|"
        r"noticed|detected|picked up|audited|queried|questioned)\b"
        r"(?!\s+as\s+(?:spam|junk|a duplicate))|"
        r"\bso (?:that )?(?:the\s+)?(?:[\w-]+\s+)?(?:questions?|checks?)\s+(?:is|are|will be)\s+"
        r"(?:not|never)\s+(?:asked|run|done|carried out|triggered)\b",
        # "so prior approval isn't needed" as the consequence of a cited rule ("Under G98, ...")
        unless=ALLOWED,
    ),
    # -- urgency standing in for the check
    _rule(
        "bypass",
        r"\bno time (?:for|to)\s+(?:the\s+|a\s+|any\s+)?(?:[\w-]+\s+)?(?:checks?|verif\w*|"
        r"call-?backs?|reviews?|approvals?|confirm\w*|sign-?offs?|paperwork|authenticat\w*|"
        r"validat\w*|due diligence)\b|"
        r"\b(?:can't|cannot|can not|won't|will not|don't|do not|doesn't|does not|shouldn't|"
        r"should not|mustn't)\s+(?:afford to\s+)?wait\s+(?:for|on)\s+(?:the\s+|a\s+|any\s+)?"
        r"(?:[\w-]+\s+)?(?:approvals?|reviews?|verification|call-?backs?|sign-?offs?|checks?|"
        r"confirmation|paperwork|second approver|authori[sz]ation)\b|"
        r"\b(?:approvals?|sign-?offs?|paperwork|verification|reviews?|documentation|"
        r"authori[sz]ation|checks?)\s+(?:can|will|may|should)\s+(?:follow|come|catch up|happen|"
        r"wait|take place|be "
        r"(?:done|added|sorted|filed|obtained|completed|handled))\s+(?:later|afterwards|after|"
        r"retroactively|tomorrow|next week|after the fact)\b|"
        r"\bretroactive(?:ly)?\s+(?:approv|sign|authori[sz]|review)\w*|"
        r"\b(?:approv|sign|authori[sz]|review)\w*\s+(?:off\s+)?retroactively\b|"
        r"\b(?:too urgent|so urgent|urgent enough)\s+(?:for|to)\s+(?:the\s+)?"
        r"(?:usual\s+|normal\s+)?(?:checks?|verification|review|approval|process|procedure)\b",
    ),
    # -- a control removed as an improvement to the process
    _rule(
        "bypass",
        r"\b(?:remove|drop|eliminate|retire|cut|strip out|get rid of|deprecate|phase out|"
        r"stop requiring|no longer require|stop asking for|make optional|streamline away)\s+"
        r"(?:the\s+|a\s+|any\s+|all\s+|that\s+|this\s+)?(?:[\w-]+\s+){0,2}?(?:verification|"
        r"approval|review|consent|identity|id|authentication|two-factor|2fa|mfa|fraud|security|"
        r"sign-?off|call-?back|kyc|aml|second[- ]approver|four-eyes|dual[- ]control|"
        r"compliance)\s+(?:steps?|checks?|prompts?|screens?|gates?|requirements?|"
        r"process|calls?|stages?)\b|"
        r"\b(?:verification|approval|review|consent|identity|authentication|sign-?off|call-?back|"
        r"kyc|security|confirmation|compliance)\s+(?:step|check|stage|requirement|process|call|"
        r"gate)s?\s+(?:is|are)\s+(?:now\s+)?(?:redundant|unnecessary|pointless|a bottleneck|"
        r"just friction|overkill|obsolete|optional|a waste of time)\b|"
        r"\bmake\s+(?:the\s+)?(?:[\w-]+\s+)?(?:verification|approval|review|2fa|mfa|two-factor|"
        r"identity check|consent|sign-?off)\s+(?:step\s+|check\s+)?optional\b",
    ),
    # -- the controls of code delivery switched off
    _rule(
        "bypass",
        r"\b(?:curl|wget)\b[^|\n]{0,160}\|\s*(?:sudo\s+)?(?:ba|z)?sh\b|"
        r"(?<![\w-])(?:--no-verify|--insecure|--trusted-host|--allow-unauthenticated|"
        r"--no-gpg-check|--nogpgcheck|--skip-signature\w*|--disable-signature\w*|"
        r"--no-check-certificate|--ignore-certificate-errors)\b|"
        r"\bverify\s*=\s*false\b|\bGIT_SSL_NO_VERIFY\b|\bStrictHostKeyChecking[= ]no\b|"
        r"\bsslverify\s*=?\s*false\b|\bNODE_TLS_REJECT_UNAUTHORIZED\s*=\s*0\b|"
        r"\bforce[- ]?push(?:ing)?\b[^.;!?\n]{0,30}?\b(?:main|master|prod|production|release)\b|"
        r"\bpush\s+(?:-f|--force)\b[^.;\n]{0,30}?\b(?:main|master|prod|production)\b|"
        r"\b(?:disable|turn off|remove|bypass|skip|lift|switch off)\s+(?:the\s+)?(?:branch "
        r"protection|required (?:reviews?|approvals?|status checks)|code ?owners? reviews?|"
        r"signature (?:checks?|verification)|certificate (?:checks?|verification|validation)|"
        r"(?:tls|ssl) (?:verification|checks?)|pre-commit hooks?|commit hooks?|ci checks?|"
        r"status checks)\b|"
        r"\bchmod\s+(?:-R\s+)?777\b|"
        r"\b(?:add|append|write|copy|insert|put)\b[^.;\n]{0,60}\bauthorized_keys\b",
        unless=r"\b(?:ask|approval|approved by|permission|only (?:after|with|when|if))\b",
    ),
    # -- the act done without its check, in other languages (es, pt, fr, de, it, nl, pl, sv, tr,
    # id, vi)
    _rule(
        "bypass",
        r"\b(?:sin|sem|sans|ohne|senza|bez|utan|zonder|tanpa)\s+(?:(?:la|el|a|o|le|les|die|den|"
        r"das|zu|te|att|de|una|um|une|eine|any)\s+)?(?:verific\w*|comprob\w*|v[eé]rifi\w*|"
        r"pr[uü]f\w*|[uü]berpr[uü]f\w*|controll\w*|kontroll\w*|control[eo]\w*|contr[oô]l\w*|"
        r"weryfikacj\w*|sprawdz\w*|autori[sz]\w*|aprobaci\w*|aprova[cç]\w*|approbation|"
        r"approvazione|genehmigung|goedkeuring|zatwierdzeni\w*|revis\w*|validat\w*|valida[cç]\w*|"
        r"identifi\w*|verifikasi|persetujuan|godk[aä]nn\w*)\b|"
        r"\b(?:do[gğ]rulama(?:dan|ks[iı]z[iı]n)|kontrol etmeden|onaylamadan|"
        rf"onay[iı]? beklemeden)\b{TURKISH_REFUSED_AFTER}",
        reach=8,
    ),
    # -- the check declared unneeded, in other languages (the negation is the order)
    _rule(
        "bypass",
        r"\bkh[oô]ng c[aầ]n (?:x[aá]c minh|ki[eể]m tra|ph[eê] duy[eệ]t)\b|"
        r"\b(?:no (?:hace falta|es necesario|necesitas?)|n[aã]o (?:[eé] necess[aá]rio|precisa)|"
        r"pas besoin de|inutile de|nicht n[oö]tig,? zu|non (?:serve|[eè] necessario)|"
        r"niet nodig om te|nie trzeba|beh[oö]ver inte)\s+(?:\w+\s+)?(?:verific\w*|comprob\w*|"
        r"v[eé]rifi\w*|pr[uü]f\w*|controll\w*|kontroll\w*|sprawdz\w*|weryfik\w*|"
        r"verifiera|controleren|confirm\w*|pedir (?:la\s+)?identificaci[oó]n|identit\w*|"
        r"identifica\w*|documento\w*|ausweis\w*|kimlik\w*|legitymacj\w*)\b|"
        r"\bkeine\s+(?:\w+\s+)?(?:pr[uü]fung|verifizierung|kontrolle|genehmigung)\s+(?:n[oö]tig|"
        r"erforderlich)\b",
        negatable=False,
    ),
    # -- an important person not to be kept waiting for the check
    _rule(
        "bypass",
        r"\b(?:don't|do not|never)\s+(?:make|keep|let)\s+(?:him|her|them|"
        r"(?:the|our|a|an|their)\s+(?:[\w-]+\s+)?[\w-]+)\s+(?:wait(?:ing)?|go through|"
        r"sit through)\s+(?:for\s+|on\s+)?"
        r"(?:the\s+|a\s+|any\s+)?(?:[\w-]+\s+)?(?:checks?|verification|call-?backs?|approvals?|"
        r"reviews?|sign-?offs?|security questions|authentication|kyc|paperwork)\b",
        negatable=False,
    ),
    # -- the check taken as done by someone else, or assumed passed
    _rule(
        "bypass",
        r"\balready\s+(?:been\s+)?(?:verified|authenticated|approved|cleared|checked|vetted|"
        r"screened)\s+(?:by\s+(?:another|the other|a different|some other|the)\s+(?:[\w-]+\s+)?"
        r"(?:department|team|agent|system|colleague|desk|branch|bank|partner|ivr|bot|channel)|"
        r"by\s+(?:the\s+)?(?:ivr|phone system|front desk|chatbot)|elsewhere|upstream|offline)\b|"
        r"\bpre-?(?:verified|authenticated|authori[sz]ed|screened|cleared)\b|"
        r"\b(?:assume|treat|consider|regard|deem|accept)\s+(?:[\w'’-]+\s+){0,5}?(?:as\s+|to be\s+|"
        r"is\s+|are\s+)(?:already\s+)?(?:an?\s+)?(?:verified|valid|authori[sz]ed|authenticated|"
        r"genuine|legitimate|approved|eligible|cleared|(?:the\s+)?(?:verified\s+)?account (?:owner|"
        r"holder)s?|the (?:card|account) ?holder)\b",
        unless=r"\b(?:once|after|only (?:if|when|after)|(?:if|when) (?:the\s+)?[\w-]+ "
        r"(?:matches|match|passes|pass|succeeds|checks out|is confirmed|comes back)|"
        r"in this (?:chat|conversation|session|call))\b|" + ALLOWED,
    ),
    # -- a flagged or held item released by the agent instead of the team that holds it
    _rule(
        "bypass",
        r"\b(?:approve|clear|release|sign off|authori[sz]e|unblock|unflag|unfreeze|unlock|"
        r"un-?hold|push through)\s+(?:the\s+|any\s+|all\s+|every\s+)?(?:flagged|held|blocked|"
        r"frozen|quarantined|suspended|escalated|on-hold)\s+[\w-]+(?:\s+(?!(?:when|once|after|if|"
        r"until|unless|only|as)\b)[\w-]+)?(?:\s+yourself)?\b",
        unless=r"\b(?:once|after|when|if|only|unless|ask|review(?:ed|s)? (?:it|them))\b",
    ),
    # -- the sign-in itself bypassed: a master password used, any account unlocked
    _rule(
        "bypass",
        r"\buse\s+(?:the\s+)?(?:master|admin(?:istrator)?|root|shared|emergency|break-?glass|"
        r"backdoor|back-door|default|superuser|god)\s+(?:password|credentials?|key|account|login|"
        r"pin|code|token)\b|"
        r"\b(?:unlock|reset|open|access|log into|sign into|take over|disable)\s+(?:any|every|"
        r"all)\s+(?:user\s+|customer\s+|member\s+|client\s+)?(?:accounts?|profiles?|mailboxes)\b|"
        r"\b(?:don't|do not|no need to|never)\s+bother\s+(?:with\s+)?(?:verif|check|confirm|"
        r"validat|authenticat|review|ask|screen|vet)\w*",
        unless=r"\bonly (?:during|in|for|when|if)\b",
    ),
    # -- a permission to go past a limit, or to approve everything
    _rule(
        "bypass",
        r"\b(?:it'?s|it is|that'?s|that is)\s+(?:fine|ok|okay|alright|all right|acceptable|"
        r"allowed|permitted)\s+to\s+[^.;!?\n]{0,60}?\b(?:above|over|beyond|past|exceed\w*|"
        r"outside|skip\w*|ignor\w*|waiv\w*|bypass\w*)\b|"
        r"\b(?:approve|accept|grant|allow|authori[sz]e|okay|ok)\s+(?:everything|anything|"
        r"every request|all requests|any request)\b"
        r"(?!\s+(?:on|in|from)\s+(?:the|this|our|your)\b|\s+(?:once|after|when|if)\b)",
    ),
    # -- a word or phrase that unlocks what the rules forbid (a back door)
    _rule(
        "bypass",
        r"\b(?:if|when|whenever|once)\b[^.;!?\n]{0,40}?\b(?:says?|mentions?|uses?|types?|gives?|"
        r"provides?|writes?|includes?|quotes?)\s+(?:the\s+)?(?:(?:special|secret|magic)\s+)?"
        r"(?:word|phrase|code ?word|keyword|passphrase|magic words?)\b[^.;!?\n]{0,40}?[,;:]?\s*"
        r"(?:then\s+|just\s+)?(?:waive|grant|skip|unlock|give|approve|treat|bypass|lift|remove|"
        r"ignore|refund|upgrade|release|override|disable)\b",
    ),
    # -- a request counted as approved before anyone approved it
    _rule(
        "bypass",
        r"\b(?:consider|treat|deem|regard|count)\s+(?:it|them|this|that|the request|(?:each|every|"
        r"any) (?:request|order|change)(?:\s+from\s+(?:the\s+)?(?:[\w-]+\s+){0,2}?[\w-]+)?|"
        r"such requests)\s+(?:as\s+)?(?:already\s+|pre-?)?(?:approved|authori[sz]ed|"
        r"signed off|cleared|verified|confirmed)\b",
        unless=r"\b(?:once|after|when|only if|as soon as)\b",
    ),
    # -- the controls of a machine switched off: scans, antivirus, firewall
    _rule(
        "bypass",
        r"\b(?:disable|turn off|switch off|uninstall|remove|pause|skip|bypass|stop|kill)\s+"
        r"(?:the\s+|their\s+|your\s+|its\s+)?(?:[\w-]+\s+)?(?:(?:security|vulnerability|malware|"
        r"virus|secrets?|dependency|sast|dast|container|code|licen[cs]e)\s+scan(?:s|ner|ning)?|"
        r"anti-?virus|anti-?malware|firewall|edr|endpoint protection|defender|smartscreen|"
        r"gatekeeper|sandbox)\b",
    ),
    # -- a package taken from somewhere other than its official source
    _rule(
        "bypass",
        r"\b(?:instead of|rather than|not)\s+(?:from\s+)?(?:the\s+)?official\s+(?:one|registry|"
        r"package|source|release|mirror|repo(?:sitory)?|build|binary|index|site|store)\b|"
        r"\b(?:post-?install|pre-?install|install|setup)\s+(?:script|hook|step)\s+(?:that|which|"
        r"to)\s+"
        r"(?:uploads?|sends?|posts?|downloads?|curls?|fetches|exfiltrates?|beacons?|reports?)\b",
    ),
    # -- a control written off in an ops note: "kyc: off", "id check: optional"
    _rule(
        "bypass",
        r"\b(?:refunds?|limits?|caps?|id checks?|identity checks?|verification|kyc|aml|2fa|mfa|"
        r"approvals?|reviews?|escalations?|fraud (?:checks?|reviews?)|checks?|screening|"
        r"monitoring|sign-?offs?|call-?backs?)\s*[:=]\s*(?:no limit|unlimited|optional|never|off|"
        r"none|skip(?:ped)?|disabled|n/?a|waived|not (?:required|needed)|no)\b|"
        r"\b(?:kyc|aml|2fa|mfa|id checks?|identity checks?|verification|fraud checks?|screening|"
        r"approvals?|reviews?|sign-?offs?|two-person rule|four-eyes(?: rule)?|dual control)\s+"
        r"(?:is\s+|are\s+)?(?:off|disabled|suspended|paused|waived)\b",
        unless=r"\b(?:recommend|suggest|ask (?:them|the \w+) to|help (?:them|the \w+)|"
        r"turn (?:it|them) (?:back )?on|enable|re-?enable|report|escalate|warn)\b",
    ),
    # -- the people who watch for abuse kept out of it
    _rule(
        "bypass",
        r"\b(?:don't|do not|never|no need to|stop|without|pls don't|"
        r"please don't)\s+(?:loop(?:ing)? "
        r"in|involv(?:e|ing)|escalat(?:e|ing)(?:\s+\w+){0,3}?\s+to|notify(?:ing)?|inform(?:ing)?|"
        r"flag(?:ging)?(?:\s+\w+){0,2}?\s+(?:to|for)|cc(?:ing)?|tell(?:ing)?|alert(?:ing)?|"
        r"report(?:ing)?(?:\s+\w+){0,3}?\s+to)\s+(?:the\s+)?(?:fraud|security|compliance|risk|"
        r"legal|aml|trust (?:&|and) safety|audit|regulators?|the regulator|police|ethics)\b|"
        r"\bnever\s+escalate\s+(?:any\s+)?(?:complaints?|reports?|tickets?|issues?|concerns?)\s+"
        r"(?:about|against|involving|from|concerning)\b|"
        r"\b(?:route|send|forward|redirect|pipe|point)\s+(?:all\s+|the\s+|"
        r"any\s+)?(?:[\w-]+\s+){0,3}?"
        r"(?:alerts?|notifications?|warnings?|reports?|complaints?|logs?)\b[^.;!?\n]{0,40}?\bto\s+"
        r"(?:/dev/null|nowhere|the (?:trash|bin)|spam|an? (?:dead|unmonitored|unused)\s+\w+)",
        negatable=False,
        unless=_ALARM_MAINTENANCE,
    ),
    # -- the act done now and its check filed later, or shipped past a failing check
    _rule(
        "bypass",
        r"\b(?:approve|merge|deploy|ship|release|refund|pay|transfer|grant|"
        r"push)\b[^.;!?\n]{0,30}?\b"
        r"(?:now|first|today|straight away|right away|immediately)\b[^.;!?\n]{0,20}?\b(?:and|"
        r"then)\s+"
        r"(?:open|file|raise|create|submit|get|do|sort out|handle)\s+(?:the\s+|a\s+)?(?:[\w-]+\s+)?"
        r"(?:change (?:ticket|request)|ticket|approval|paperwork|review|sign-?off|cr)\b"
        r"[^.;!?\n]{0,20}?\b(?:later|tomorrow|afterwards|next week|after)\b|"
        r"\b(?:merge|deploy|ship|release|push|publish)\b[^.;!?\n]{0,40}?\b(?:even (?:though|if|"
        r"when)|"
        r"despite|regardless of)\b[^.;!?\n]{0,30}?\b(?:tests?|ci|checks?|build|pipeline|scans?|"
        r"review)\b[^.;!?\n]{0,20}?\b(?:red|fail\w*|broken|flaky|pending|not (?:passed|finished|"
        r"green)|haven't passed|unfinished)\b|"
        r"\b(?:merge|deploy|ship|release)\b[^.!?\n]{0,40}?\b(?:ci|tests?|checks?|build)\s+(?:is|"
        r"are)\s+(?:just\s+)?(?:being\s+)?(?:flaky|noise|noisy|broken anyway|wrong)\b",
    ),
    # -- pressure or an unverifiable claim standing in for the decision
    _rule(
        "bypass",
        r"\b(?:change|approve|grant|prescribe|reinstate|unban|raise|increase|override|release|"
        r"unlock|"
        r"reset|disclose|share|hand over|extend|re-?open|restore|reverse)\b[^.;!?\n]{0,80}?\b(?:if|"
        r"when|whenever|as long as|once)\s+(?:the\s+)?(?:[\w-]+(?:'s|s')\s+)?(?:customer|user|"
        r"caller|patient|parent|student|player|guest|member|client|tenant|applicant|they|he|she)"
        r"\s+(?:insists?|complains?|threatens?|pushes? back|gets? (?:angry|upset|loud)|begs?|"
        r"promises?|swears?|says? (?:it was|it's|it is) (?:a mistake|an error|fine|ok)|"
        r"claims? (?:it was|to be|they))\b|"
        r"\b(?:if|when|whenever)\s+(?:the\s+)?(?:customer|user|caller|patient|parent|student|"
        r"player|guest|member|client|tenant|applicant|they|he|she)\s+(?:insists?|threatens?|begs?|"
        r"promises? (?:a\s+)?(?:good\s+|5-star\s+|five-star\s+)?review)\b[^.;!?\n]{0,30}?,?\s*"
        r"(?:just\s+)?(?:change|approve|grant|prescribe|reinstate|unban|raise|increase|override|"
        r"release|unlock|reset|disclose|share|give|extend|refund)\b",
        unless=r"\b(?:escalate|refer|explain|decline|politely|never|do not|don't|after (?:checking|"
        r"verifying)|verify)\b",
    ),
    # -- the account's second factor or limits handed over
    _rule(
        "bypass",
        r"\b(?:add|register|enrol|enroll|set|make)\s+(?:the\s+)?(?:caller|customer|user|"
        r"requester|their|a new|the new|this)(?:'s)?\s+(?:phone|device|number|e-?mail|key|"
        r"laptop)\s+"
        r"(?:as\s+)?(?:a\s+|the\s+)?(?:trusted|recovery|primary|backup|2fa|mfa|second-factor)\s+"
        r"(?:device|number|method|contact|e-?mail|factor)\b|"
        r"\b(?:raise|increase|set|lift|bump)\s+(?:the\s+)?(?:[\w-]+(?:'s|s')\s+)?(?:credit|"
        r"spending|"
        r"withdrawal|transfer|daily|card|overdraft)\s+limit\s+to\s+(?:the\s+)?(?:maximum|max|"
        r"unlimited|highest|top)\b|"
        r"\b(?:issue|send|ship|mail|post|deliver)\s+(?:a\s+|the\s+)?(?:replacement|new)\s+(?:card|"
        r"pin|cheque|check|token|device|sim(?: card)?|chequebook|key)s?\s+to\s+(?:a|the)\s+(?:new|"
        r"different|other|temporary)\s+address\b|"
        r"\bno questions\b",
        unless=r"\b(?:once|after|only (?:after|if|when)|verif\w+|confirm\w*|authenticat\w*)\b",
    ),
    # -- approval whatever the reason; rights given by default
    _rule(
        "bypass",
        r"\b(?:approve|refund (?:it|them|the)|grant|accept|honou?r|issue|"
        r"pay)\b[^.;!?\n]{0,40}?\b(?:no matter (?:the "
        r"reason|what|why)|whatever the reason|for any reason(?: at all)?|without (?:a|"
        r"any) reason)\b|"
        r"\badd\s+(?:them|him|her|the (?:user|hire|caller|contractor|customer|new \w+)|"
        r"every(?:one| new \w+))\s+to\s+(?:the\s+)?(?:[\w-]+[- ])?(?:admins?|administrators?|"
        r"superusers?|owners?|root|sudoers|privileged|domain admins)(?:\s+(?:group|role|team))?\b",
    ),
    # -- the most there is, given to everyone; the act first, its check afterwards
    _rule(
        "bypass",
        r"\b(?:offer|give|grant|issue|apply|pay)\s+(?:the\s+)?(?:maximum|max|highest|full|largest|"
        r"biggest)\s+(?:[\w-]+\s+)?(?:compensation|refunds?|credits?|discounts?|vouchers?|payouts?|"
        r"amounts?)\s+(?:on|for|to)\s+(?:every|all|each|any)\b|"
        r"\bfirst\b[^.;!?\n]{0,40}?\b(?:and|then)\s+(?:collect|get|take|ask for|check|verify|"
        r"confirm|obtain)\s+(?:the\s+|their\s+)?(?:[\w-]+\s+){0,2}?(?:payment|details|id|identity|"
        r"documents?|approval|consent|authori[sz]ation|proof|signature)\w*\s+(?:afterwards|later|"
        r"after(?:wards)?|at the end)\b|"
        r"\beven for (?:other|another|different|third)\s+(?:people|persons?|customers?|users?|"
        r"accounts?|passengers?|guests?|members?|parties|travell?ers)\b|"
        r"\b(?:transfer|escalate|hand (?:it\s+)?over|"
        r"pass (?:it\s+)?on)\b[^.;!?\n]{0,40}?\bonly after "
        r"(?:completing|processing|issuing|finishing|doing|approving|making|granting)\s+(?:the\s+)?"
        r"(?:[\w-]+\s+)?(?:refund|payment|transfer|cancellation|change|withdrawal|booking|"
        r"exchange|credit|upgrade)\b",
    ),
    # -- a favour granted on a mere mention
    _rule(
        "bypass",
        r"\b(?:for free|free of charge|at no (?:cost|charge|extra cost)|waive\w*|refund\w*|"
        r"upgrade\w*|comp\b|compensate\w*)\b[^.;!?\n]{0,40}?\bif\s+(?:the\s+)?(?:user|customer|"
        r"caller|guest|client|member|they|he|she)\s+(?:(?:just|merely|simply|so much as)\s+)?"
        r"(?:mentions?|says?|claims?|states?|brings up|hints?)\b|"
        r"\bif\s+(?:the\s+)?(?:user|customer|caller|guest|client|member|they|he|she)\s+"
        r"(?:(?:just|merely|simply|so much as)\s+)?(?:mentions?|claims?|brings up|hints? at)\s+"
        r"(?:an?\s+|any\s+|their\s+)?(?:[\w-]+\s+){0,2}?(?:condition|emergency|illness|disability|"
        r"pregnancy|bereavement|complaint|problem|issue|hardship|lawyer|journalist|review)\b"
        r"[^.;!?\n]{0,20}?,?\s*(?:just\s+)?(?:upgrade|waive|refund|comp|grant|approve)\b",
        unless=r"\b(?:document\w*|proof|certificate|doctor'?s note|evidence|verif\w*|policy "
        r"allows|eligible|ask for)\b",
    ),
    # -- a control dropped for speed or convenience: "to hit the SLA, skip the second approver",
    # "skip the witness signature, fill it in tomorrow", "the two-factor prompt slows support down"
    _rule(
        "bypass",
        _CONTROL + r"[^\n]{0,200}?" + _HURRY + r"|" + _HURRY + r"[^\n]{0,200}?" + _CONTROL,
        reach=8,
        unless=ALLOWED,
    ),
    # The alarm silenced is an order; "never silence alarms because a note says so" refuses it.
    _rule(
        "bypass",
        r"\b(?:mute|silence|snooze|suppress)\s+(?:the\s+|all\s+)?(?:[\w-]+\s+){0,2}?(?:alerts?|"
        r"alarms?|monitoring)\b",
        unless=_ALARM_MAINTENANCE,
    ),
    # -- the waiting a rule sets cut short: "issue the order the day after the notice instead of
    # waiting the 14 days"; a check's act skipped: "skip matching ID against the manifest"
    _rule(
        "bypass",
        r"\bskip(?:ping)?\s+(?:the\s+)?(?:matching|checking|verifying|validating|confirming|"
        r"inspecting|vetting|screening|cross-checking)\s+(?!(?:for|on|in)\b)\w+|"
        r"\b(?:instead of|rather than|without) waiting (?:out |for )?(?:the |a )?(?:full |required "
        r")?(?:\d+|one|two|three|five|seven|ten|fourteen|thirty)[- ](?:business[- ])?(?:days?|"
        r"hours?|weeks?|months?)\b|\b(?:skip|cut|shorten|drop)\s+(?:the\s+)?(?:holding|waiting|"
        r"cooling-off|notice|quarantine|observation) period\b",
        reach=8,
        unless=_BOUNDED,
    ),
]
"""Rules read like `memory/_intents.RULES` (negated forms benign where `negatable`)."""


__all__ = ["BYPASS"]
