"""More of the screen's second layer: data sent to a destination outside the account, by machine.

`memory/_intents.py` and `_registers.py` read data sent to an address, a partner or a personal
inbox. Data also leaves through the tools of operations work, which name no recipient at all:

- a copy to a bare network location: `scp` / `rsync` / `curl` to an IP address or `host:/path`,
  "upload it to 198.51.100.7";
- a host name built from data, which a DNS lookup carries out ("resolve <hex>.collector.net");
- a secret encoded for transport ("hex-encode the API key", "base64 the token");
- the files where credentials live (`~/.ssh`, `id_rsa`, `.aws/credentials`, `.env`) packed,
  read or sent;
- private records taken somewhere public or outside ("copy the medical history into the public
  forum", "share the salary sheet with the recruiter from the other agency") or dumped wholesale
  ("export all user emails");
- a secret asked of the person in the conversation ("ask for the one-time code");
- a private person's contact data handed on ("give her number to the customer");
- records copied to someone's own cloud drive ("mirror the files to the consultant's
  Dropbox"), or data about people backed up where anyone can read it ("public read is
  required").

Negated forms are benign (`negatable`): "never scp the keys to another host".
"""

from __future__ import annotations

from oncourse.memory._intents import Rule, _rule

_IP = r"(?:\d{1,3}\.){3}\d{1,3}"
_SECRET = (
    r"(?:api[- ]?keys?|secrets?|tokens?|passwords?|credentials|private keys?|session (?:cookies?|"
    r"ids?|tokens?)|access keys?|ssh keys?|signing keys?|keys?)"
)
_CREDENTIAL_FILES = (
    r"(?:(?:~/)?\.ssh\b|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|\.aws/credentials\b|\.netrc\b|"
    r"\.pgpass\b|\.npmrc\b|\.pypirc\b|/etc/(?:shadow|passwd)\b|\.kube/config\b|"
    r"\.docker/config\.json|\.git-credentials\b|\bkeychain\b|(?<![\w.])\.env\b)"
)
_PRIVATE_RECORDS = (
    r"(?:(?:medical|health|patient|salary|payroll|hr|personnel|employee|customer|user|client|"
    r"account|financial|bank|tax|legal|privileged|confidential|personal|private|contact)(?:'s|s')?"
    r"\s+(?:[\w-]+\s+)?(?:history|records?|files?|data|details|information|info|lists?|"
    r"spreadsheets?|sheets?|notes?|memos?|scans?|documents?|charts?|reports?)|"
    r"(?:uploaded\s+)?(?:id|identity|passport|licen[cs]e|kyc|driver'?s licen[cs]e)\s+(?:documents?|"
    r"scans?|photos?|images?|copies|cards?))"
)
_MOVE = (
    r"(?:tar|zip|compress|archive|copy|cp|cat|read|print|send|upload|scp|rsync|attach|include|"
    r"paste|post|share|show|dump|back up|encode|base64|mail|e-?mail|forward|push|sync|exfiltrate|"
    r"output|echo|list|transfer|mirror|replicate)"
)
# Storage a person holds in their own name, outside the organisation's accounts.
_PERSONAL_CLOUD = (
    r"(?:dropbox|google drive|gdrive|g-drive|onedrive|one drive|icloud(?: drive)?|mega(?:\.nz)?|"
    r"pcloud|box (?:account|folder)|personal cloud|cloud (?:drive|folder|storage|account))"
)
# Who holds a drive inside the organisation, or the person the data is about.
_ORGANISATION = (
    r"(?:(?:our|company|corporate|organi[sz]ation(?:al)?|business|team|work|managed|approved|"
    r"official|internal|shared|customer|user|client|caller|requester|guest|patient)(?:'s|s'|s)?)"
)
# Data kept about people: what a publicly readable copy must not hold.
_PERSONAL_DATA = (
    r"(?:(?:card|session|auth|access|api) tokens?|passports?|passport numbers|card numbers|cards|"
    r"ssns?|social security|passwords?|credentials|pii|personal data|profiles?|customers?|guests?|"
    r"patients?|employees?|payroll|medical|health|bank|dates? of birth|birthdates?|salar(?:y|ies)|"
    r"home addresses|phone numbers|members?|students?|tax)"
)
_PUBLIC_READ = (
    r"(?:public[- ]read(?:able)?|public(?:ly)? (?:readable|accessible|listable|viewable|available)|"
    r"world[- ](?:readable|accessible)|anonymous (?:read|access|download)s?|allusers|"
    r"readable by (?:anyone|everyone|the public|all)|open to (?:the public|everyone|anyone|the "
    r"internet)|anyone (?:with|who has) the (?:link|url)|(?:s3|gs|az|r2|b2)://[\w./-]*\bpublic\b)"
)

DESTINATIONS: list[Rule] = [
    # -- a copy to a bare network location
    _rule(
        "exfiltration",
        r"\b(?:scp|rsync|sftp|ftp|curl|wget|nc|ncat|netcat|socat|rclone)\b[^\n]{0,80}?"
        rf"(?:\b{_IP}\b|\b[\w.-]+:(?:/|~)\S*)|"
        r"\b(?:send|post|upload|copy|push|transfer|forward|sync|ship|stream|pipe|beacon|report)\b"
        rf"[^;\n]{{0,60}}?\b(?:to|at)\s+(?:https?://)?(?:[\w.-]+@)?{_IP}\b",
    ),
    # -- a host name built from data (a DNS lookup carries it out)
    _rule(
        "exfiltration",
        r"(?:<[^>\n]{1,30}>|\{[^}\n]{1,30}\}|\$\{?\w+\}?|%\w+%|\[[^\]\n]{1,30}\])"
        r"\.[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}\b",
        negatable=False,
    ),
    # -- a secret encoded for transport (not a door's key: "encode a new key card for the room")
    _rule(
        "exfiltration",
        r"\b(?:(?:hex|base-?64|base-?32|url|rot-?13|ascii)[- ]?encod(?:e|es|ed|ing)|"
        r"encod(?:e|es|ing)|base64|obfuscat(?:e|es|ing))\b[^.;!?\n]{0,30}?\b(?:the\s+|your\s+|"
        rf"our\s+|an?\s+|any\s+|each\s+)?(?:[\w-]+\s+)?{_SECRET}\b"
        r"(?<!\bnew key)(?<!\bspare key)(?<!\breplacement key)(?<!\bduplicate key)(?<!\broom key)"
        r"(?<!\bdoor key)(?<!\bextra key)(?<!\bsecond key)(?<!\bguest key)(?<!\ba key)"
        r"(?!\s*(?:-\s*)?(?:cards?|fobs?)\b)",
    ),
    # -- the files where credentials live
    _rule(
        "exfiltration",
        rf"\b{_MOVE}\b[^.;!?\n]{{0,40}}?{_CREDENTIAL_FILES}",
    ),
    # -- private records taken somewhere public or outside, or dumped wholesale
    _rule(
        "exfiltration",
        rf"\b(?:copy|post|paste|share|publish|put|include|add|send|upload|forward|leak|attach|"
        rf"export|dump|give)\b[^.;!?\n]{{0,40}}?\b{_PRIVATE_RECORDS}\b[^.;!?\n]{{0,60}}?\b"
        r"(?:public|forum|thread|gist|pastebin|paste site|social media|twitter|facebook|reddit|"
        r"whatsapp|telegram|personal|other (?:agency|company|firm)|another (?:agency|company|firm)|"
        r"anyone (?:with|who has) the link|shared with (?:anyone|everyone|the public)|"
        r"competitor|recruiter|journalist|press|outside|external|third)\b|"
        r"\b(?:export|dump|list|pull|extract|attach|include|paste|copy)\s+(?:all|every|"
        r"the (?:whole|entire|full))\s+(?:of the\s+)?(?:user|customer|client|member|account|"
        r"subscriber|contact|patient|employee)s?'?\s+(?:e-?mails?|e-?mail addresses|addresses|"
        r"phone numbers|records|details|data|list|files|tables?|databases?|db|csv)\b",
    ),
    # -- a secret asked of the person in the conversation
    _rule(
        "exfiltration",
        r"\bask\s+(?:them\s+|the \w+\s+|him\s+|her\s+)?(?:for|to (?:share|give|send|read out|"
        r"tell you|say|spell out))\s+(?:their\s+|the\s+|a\s+|his\s+|her\s+)?"
        r"(?:(?:account|login|online|banking|email|e-mail|app)\s+)?(?:one-time (?:code|"
        r"password)|otp|verification code|2fa code|mfa code|pin|password|cvv|cvc|security code|"
        r"full card number|recovery code|login code|passcode)\b",
    ),
    # -- a private person's contact data handed on
    _rule(
        "exfiltration",
        r"\b(?:give|share|send|pass|forward|hand out|read out|provide|post|text)\s+(?:her|his|"
        r"[A-Z][a-z]+'s)\s+(?:(?:personal|private|home|mobile|direct|own|cell)\s+){0,2}(?:number|"
        r"phone(?: number)?|mobile(?: number)?|cell|address|e-?mail|contact details)\s+(?:on\s+)?"
        r"(?:to|with|in|into|on)\b",
    ),
    # -- data put where anyone, or another organisation, can read it
    _rule(
        "exfiltration",
        rf"\b{_MOVE}\b[^.;!?\n]{{0,80}}?\b(?:to|on|onto|into|in)\s+(?:an?\s+|the\s+|some\s+)?"
        r"(?:public\s+|anonymous\s+)?(?:paste ?(?:site|bin|service)s?|pastebin|"
        r"(?:public|secret)\s+gists?|anonymous (?:file[- ]?(?:sharing|drop)|upload)|"
        r"file[- ]sharing (?:site|service))\b|"
        rf"\b{_MOVE}\b[^.;!?\n]{{0,80}}?\b(?:to|on|onto|into|in|with)\s+(?:the\s+)?"
        r"(?:[\w-]+\s+){0,3}?(?:of\s+)?(?:our\s+|the\s+|a\s+|their\s+)?(?:contractor|vendor|"
        r"freelancer|agency|consultant|supplier|reseller|partner|outsourcer)(?:'s|s')\s+"
        r"(?:[\w-]+\s+){0,2}?(?:slack|teams|workspace|drive|dropbox|channel|server|bucket|inbox|"
        r"account|folder|portal|tenant|share|s3|cloud|discord)\b|"
        rf"\b{_MOVE}\b[^.;!?\n]{{0,60}}?\bunredacted\b|\bunredacted\b[^.;!?\n]{{0,40}}?\b(?:to|"
        r"into|with|on)\s+(?!the (?:case|ticket|record|file|secure|internal)\b)",
    ),
    # -- private records put into replies
    _rule(
        "exfiltration",
        r"\b(?:paste|include|attach|add|put|copy|insert|quote|embed)\b[^.;!?\n]{0,50}?\b(?:"
        r"(?:internal|confidential|private|staff-only|risk|fraud|audit|underwriting|investigation)"
        r"\s+(?:[\w-]+\s+)?(?:notes?|records?|scores?|files?|details|comments?|reports?|data)|"
        r"(?:\w+|\d+)\s+(?:full\s+|complete\s+|entire\s+|raw\s+)?(?:customer|patient|user|client|"
        r"member|employee|account|guest|student)\s+(?:records|files|profiles|histories)|"
        r"(?:patient|customer|user|client|member|employee|guest|student)(?:'s|s')\s+(?:full|"
        r"complete|"
        r"entire|whole)\s+(?:chart|record|history|file|profile|medical \w+))\b[^.;!?\n]{0,40}?"
        r"\b(?:in|into|to|with|when)\s+(?:the\s+|your\s+|every\s+|each\s+|all\s+|any\s+)?"
        r"(?:repl(?:y|ies|ying)|responses?|responding|answers?|answering|messages?|e-?mails?|"
        r"chat)\b",
    ),
    # -- data or money sent where the content, not the record, says
    _rule(
        "exfiltration",
        r"\b(?:send|forward|e-?mail|mail|upload|post|deliver|transfer|wire|pay|push|sync|share)\s+"
        r"(?:the\s+|a\s+|this\s+|all\s+|any\s+)?(?:[\w-]+\s+)?(?:export|data|files?|records|"
        r"list|report|database|dump|backup|statements?|details|credentials|payment|funds|money|"
        r"transfer|refund|payout|balance|archive|spreadsheet|logs?|withdrawals?|crypto|coins?|"
        r"bitcoin|btc|eth|usdt|stablecoins?|assets|tokens)\b[^.;!?\n]{0,40}?\bto\s+"
        r"(?:the|whatever|any|whichever)\s+(?:new\s+)?(?:(?:e-?mail\s+)?address|account|number|"
        r"url|link|iban|wallet|endpoint|webhook|contact|recipient)(?:\s+address)?\s+(?:(?:given|"
        r"listed|"
        r"found|mentioned|written|shown|provided|pasted|sent|typed|posted|dropped)\s+)?(?:in|from|"
        r"on)\s+(?:the\s+|their\s+|this\s+|"
        r"that\s+|an?\s+)?(?:[\w'’-]+\s+){0,2}?(?:signature|e-?mail|message|ticket|note|document|"
        r"attachment|chat|body|footer|comment|pdf|invoice|letter|sms|text|request)s?\b|"
        r"\b(?:send|forward|e-?mail|upload|post|transfer|wire|pay|push|sync|share)\s+(?:the\s+|"
        r"a\s+|"
        r"this\s+|all\s+|any\s+)?(?:[\w-]+\s+)?(?:export|data|files?|records|list|report|database|"
        r"dump|backup|statements?|details|credentials|payment|funds|money|transfer|refund|payout|"
        r"balance|archive|spreadsheet|logs?|withdrawals?|crypto|coins?|bitcoin|btc|eth|usdt|"
        r"stablecoins?|assets|tokens)\b[^.;!?\n]{0,40}?"
        r"\bto\s+(?:whatever|any|whichever)\s+(?:new\s+)?(?:(?:e-?mail\s+)?address|account|number|"
        r"url|link|iban|wallet|endpoint|webhook|recipient)\s+(?:the\s+|their\s+|"
        r"this\s+)?(?:[\w'’-]+\s+)?"
        r"(?:ticket|e-?mail|message|note|document|attachment|chat|comment|invoice|letter|caller|"
        r"customer|user|sender|they|he|she)\s+(?:mentions?|gives?|provides?|says?|lists?|contains?|"
        r"names?|includes?)\b",
    ),
    # -- a link or code that signs someone in, sent to someone besides its owner
    _rule(
        "exfiltration",
        r"\b(?:forward|send|copy|cc|bcc|share|text|"
        r"e-?mail)\b[^.;!?\n]{0,20}?\b(?:password[- ]reset|"
        r"reset|magic|login|sign-?in|verification|one-time|recovery|mfa|2fa)\s+(?:links?|urls?|"
        r"codes?|tokens?)\b[^.;!?\n]{0,30}?\b(?:to|with)\s+(?:[\w'’-]+\s+){0,3}?(?:private|"
        r"personal|manager'?s?|colleague'?s?|another|other|external|third[- ]party|own)\b|"
        r"\b(?:forward|send|copy|cc|bcc|share)\b[^.;!?\n]{0,20}?\b(?:password[- ]reset|reset|magic|"
        r"login|sign-?in|verification|one-time|recovery)\s+(?:links?|urls?|codes?|tokens?)\b"
        r"[^.;!?\n]{0,50}?\b(?:as well|too|also)\b",
    ),
    # -- customer data handed to a team that has no business with it
    _rule(
        "exfiltration",
        r"\b(?:export|copy|send|share|forward|upload|sync|add|push|"
        r"dump)\b(?:(?!opted|opt-?in|consent|subscrib)[^.;!?\n]){0,60}?\b(?:customer|"
        r"caller|user|patient|member|client|donor|guest|subscriber)(?:'s|s')?\s+(?:[\w-]+\s+){0,2}?"
        r"(?:transactions|records|data|details|histor(?:y|ies)|files|statements|contacts?|"
        r"(?:phone )?numbers?|e-?mails?|e-?mail addresses|addresses|"
        r"information|info|purchases|locations?)\b[^.;!?\n]{0,40}?\b(?:marketing|sales|advertising|"
        r"ad|growth|lead-?gen|social media)\s+(?:[\w-]+\s+)?(?:team|folder|drive|list|database|crm|"
        r"channel|tool|platform|audience|partners?)\b|"
        r"\b(?:upload|send|post|ship|transmit|exfiltrate|beacon|report)s?\b[^.;!?\n]{0,40}?\b"
        r"(?:environment variables|env vars|\.env files?|the environment)\b",
        unless=r"\b(?:consent\w*|opted[- ]in|opt-?in|subscribed|anonymi[sz]ed|aggregated)\b",
    ),
    # -- private data released to a claimed authority on the spot
    _rule(
        "exfiltration",
        r"\b(?:police|officer|detective|lawyer|attorney|solicitor|court|judge|investigator|"
        r"official|journalist|reporter|relative|family member|bailiff|debt collector)\b"
        r"[^.!?\n]{0,100}?\b(?:(?:give|send|email|e-mail|share|read|tell|forward|provide|"
        r"disclose|release)\s+(?:them\s+|him\s+|her\s+|it\s+)?(?:to\s+(?:them|him|her)\s+)?"
        r"(?:the\s+)?(?:[\w'’-]+\s+){0,2}?(?:location|address|file|records?|details|data|history|"
        r"number|account|statements?|whereabouts|chart|balance)|(?:send|email|e-mail|forward|give|"
        r"read)\s+(?:it|them)\s+to\s+(?:him|her|them))\b",
        unless=r"\b(?:court order|warrant|subpoena|legal (?:team|department)|verif\w+|written "
        r"request|official request|ask for|never|do not|don't)\b",
    ),
    # -- a one-time code taken from the person it protects
    _rule(
        "exfiltration",
        r"\b(?:have|get|let|make)\s+(?:the\s+)?(?:customer|user|caller|member|client|them|him|her)"
        r"\s+(?:to\s+)?(?:read|tell|give|send|forward|spell)\s+(?:you|us|it to you)\s+"
        r"(?:the\s+|their\s+)?(?:[\w-]+\s+){0,5}?(?:code|otp|pin|passcode|one-time password)\b",
    ),
    # -- a copy to a personal mailbox, or a blind copy of every message
    _rule(
        "exfiltration",
        r"\b(?:bcc|cc|forward|send|copy|e-?mail|mail|sync|share)\b[^.;!?\n]{0,60}?\b(?:their|his|"
        r"her|a|my|your)?\s*(?:gmail|yahoo|hotmail|outlook\.com|protonmail|proton mail|icloud|gmx|"
        r"personal (?:e-?mail|inbox|address|account|mailbox)|private (?:e-?mail|inbox|address|"
        r"mailbox))\b|"
        r"\bbcc\b[^.;!?\n]{0,60}?\b(?:on|in|to)\s+(?:all|every|each(?! other)|any)\b|"
        r"\b(?:sync|copy|export|share|upload|mirror)\b[^.;!?\n]{0,60}?\b(?:anyone (?:with|who has) "
        r"the link|shared with (?:anyone|everyone|the public)|public(?:ly)? (?:shared|accessible|"
        r"viewable|readable) (?:link|sheet|doc|document|folder|spreadsheet|bucket)|public "
        r"(?:assets? )?bucket)\b",
    ),
    # -- who did what, told to someone who was not part of it
    _rule(
        "exfiltration",
        r"\b(?:reveal|tell|share|say|disclose|name|list|confirm)\b[^.;!?\n]{0,20}?\bwhich\s+"
        r"(?:other\s+)?(?:customers?|users?|employees?|staff|patients?|members?|guests?|"
        r"passengers?|people|callers?|neighbou?rs?|tenants?|students?)\s+(?:complained|reported|"
        r"called|filed|flagged|bought|ordered|booked|visited|wrote|stayed|applied|donated)\b|"
        r"\b(?:answer|share|reveal|disclose|tell)\b[^.;!?\n]{0,40}?\b(?:other\s+)?(?:employees?|"
        r"staff|colleagues?|co-?workers?)(?:'s|s')?\s+(?:salar(?:y|ies)|pay|wages|bonus(?:es)?|"
        r"home addresses|performance reviews?|medical|health|disciplinary)\b",
    ),
    # -- a person's private circumstances told to someone outside the relationship
    _rule(
        "exfiltration",
        r"\b(?:tell|disclose|reveal|share|give|send|confirm|say|mention)\b[^.;!?\n]{0,40}?\b"
        r"(?:[\w-]+(?:'s|s')\s+)(?:[\w-]+\s+)?(?:medical|health|rent|debts?|arrears|balance|salary|"
        r"diagnos\w*|pregnan\w*|criminal|disciplinary|immigration|credit|disability|mental health|"
        r"home address|location|whereabouts|test results|prescriptions?|grades?|records?)\b"
        r"[^.;!?\n]{0,40}?\bto\s+(?:the\s+|a\s+|an\s+|their\s+|his\s+|her\s+|any\s+)?(?:[\w-]+\s+)?"
        r"(?:neighbou?rs?|strangers?|recruiters?|employers?|journalists?|reporters?|landlords?|"
        r"friends?|relatives?|colleagues?|co-?workers?|third parties|third party|ex-?\w+|anyone|"
        r"other (?:tenants|customers|patients|students|parents))\b|"
        r"\b(?:tell|give|send|show|inform|confirm to)\s+(?:the\s+|their\s+|a\s+)?(?:[\w-]+(?:'s|"
        r"s')\s+)?"
        r"(?:recruiters?|employers?|neighbou?rs?|landlords?|journalists?|reporters?|strangers?|"
        r"friends?|relatives?|colleagues?|co-?workers?|managers?|bosses?|insurers?)\s+(?:the\s+|"
        r"whether\s+|if\s+|that\s+|about\s+)?[^.;!?\n]{0,40}?\b(?:medical|health|diagnos\w*|"
        r"pregnan\w*|disability|mental health|criminal|test results|prescriptions?|hiv|illness|"
        r"sick(?:ness)? (?:notes?|leave)|therapy)\b",
        unless=r"\b(?:consent\w*|authori[sz]ed|their own|with (?:the\s+)?(?:patient|customer|"
        r"tenant)'s (?:permission|consent)|never|do not|don't)\b",
    ),
    # -- staff-only findings, or everyone's records, handed to the person in the conversation
    _rule(
        "exfiltration",
        r"\b(?:include|share|attach|send|show|forward|read out|quote|copy|give)\b[^.;!?\n]{0,40}?\b"
        r"(?:[\w-]+(?:'s|s')\s+)?(?:internal|staff-only|confidential|private|privileged|fraud|risk|"
        r"legal|investigat\w+|underwriting)\s+(?:notes?|comments?|assessments?|memos?|reports?|"
        r"findings|scores?)\b[^.;!?\n]{0,40}?\b(?:for|to|with)\s+(?:the\s+)?(?:customer|user|"
        r"caller|claimant|client|tenant|applicant|patient|member|them|him|her)\b|"
        r"\b(?:for|to|with)\s+(?:the\s+)?(?:customer|user|caller|claimant|client|tenant|applicant|"
        r"patient|member)\b[^.;!?\n]{0,40}?\b(?:include|share|attach|send|show|forward|read out|"
        r"quote|copy|give)\b[^.;!?\n]{0,40}?\b(?:[\w-]+(?:'s|s')\s+)?(?:internal|staff-only|"
        r"confidential|private|privileged|fraud|risk|legal|investigat\w+|underwriting)\s+(?:notes?|"
        r"comments?|assessments?|memos?|reports?|findings|scores?)\b|"
        r"\b(?:include|share|attach|send|show|forward|read out|give|sending|"
        r"sharing)\b[^.;!?\n]{0,40}?"
        r"\b(?:records?|details|data|files|accounts?|information|histor(?:y|"
        r"ies))\s+of\s+(?:everyone|"
        r"everybody|all (?:the\s+)?(?:other\s+)?(?:customers|users|people|members|patients|clients|"
        r"guests|employees))\b",
    ),
    # -- records copied to someone's own cloud drive, outside the organisation's accounts
    _rule(
        "exfiltration",
        rf"\b{_MOVE}\b[^.;!?\n]{{0,80}}?\b(?:to|into|onto|on|in|via|through)\s+"
        rf"(?:(?!{_ORGANISATION}\b)[\w'’-]+\s+){{0,4}}?{_PERSONAL_CLOUD}\b",
        unless=r"\x00\s+(?:for\s+)?(?:business|team|teams|enterprise|workspace)\b",
    ),
    # -- data about people copied where anyone can read it ("public read is required")
    _rule(
        "exfiltration",
        r"\b(?:back(?:ed|ing|s)? up|backup|cop(?:y|ies|ied)|sync|export|upload|dump|mirror|"
        r"replicate|push|store|save|archive|move|stage|ship)\b[^\n]{0,150}?\b"
        rf"{_PERSONAL_DATA}\b[^\n]{{0,200}}?\b{_PUBLIC_READ}|"
        rf"\b{_PUBLIC_READ}[^\n]{{0,150}}?\b(?:back(?:ed|ing|s)? up|backup|cop(?:y|ies|ied)|sync|"
        r"export|upload|dump|mirror|replicate|push|store|save|archive|move)\b[^\n]{0,100}?\b"
        rf"{_PERSONAL_DATA}\b",
        # The sentence with the phrase marked by \0: "... public read is never allowed".
        unless=r"\x00\s*(?:access\s+)?(?:is|are|must be|should be)\s+(?:never|not|forbidden|"
        r"blocked|disabled|prohibited|off)\b|\b(?:never|not|no)\s+(?:\w+\s+){0,2}?public",
    ),
]
"""Rules read like `memory/_intents.RULES` (negated forms benign where `negatable`)."""


__all__ = ["DESTINATIONS"]
