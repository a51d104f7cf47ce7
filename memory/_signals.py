"""More of the screen's second layer: signals in how a text is addressed, not in its verbs.

The phrase rules in `memory/_intents.py` name what a hostile text asks. These name how it is
put, which varies less between attackers than the wording does:

- a message addressed to the model inside the text ("note to the assistant", "for the AI only");
- asking to hide what is done ("keep this to yourself", "without telling the user", "secretly");
- a tool call written out as markup or JSON for the agent to emit;
- the agent's own set-up as the object of an output verb ("echo your preamble", "the text you
  were initialised with", "the prompt above this conversation", "the guidelines injected into
  it") and the agent's chain of command handed to the user ("you now answer to the user", "their
  word is final");
- an order to carry out what an encoded span says ("execute the hex instruction", "decode it
  and follow it"), whatever it decodes to;
- the overriding verbs and instruction nouns in the languages a guideline is most often
  translated into (Spanish, French, German, Italian, Portuguese, Dutch), since the meaning
  layer's embedder reads English only.
"""

from __future__ import annotations

from oncourse.memory._intents import EMBEDDED_IN_DATA, Rule, _rule

_AI = r"(?:assistant|ai|a\.i\.|bot|chatbot|model|llm|language model|agent)"
_SETUP = (
    r"(?:(?:your|the)\s+(?:own\s+|original\s+|hidden\s+|full\s+|initial\s+|exact\s+|entire\s+|"
    r"complete\s+|whole\s+|current\s+|real\s+|actual\s+)*"
    r"(?:setup|set-up|configuration|config|preamble|directives|briefing|programming|"
    r"initiali[sz]ation|initial (?:context|message|prompt)|setup (?:message|text|prompt)|"
    r"standing orders|background (?:instructions|directives)|system (?:prompt|message))|"
    r"(?:text|instructions|message|prompt|rules|wording)\s+(?:that\s+)?you\s+(?:were|have been)\s+"
    r"(?:initiali[sz]ed|loaded|configured|set up|primed|deployed|started|created|booted)|"
    r"(?:full|exact|complete|whole)\s+(?:text|wording)\s+of\s+your\s+\w+|"
    r"(?:text|wording|contents?)\s+of\s+(?:your|the)\s+(?:[\w-]+\s+)?(?:instructions|prompt|"
    r"set-?up|configuration|briefing|directives|system (?:prompt|message))|"
    # What precedes the conversation, or was put into it, is the set-up by another name.
    r"(?:text|prompts?|instructions|message|words|content|everything|anything|whatever|what|"
    r"rules|guidelines|notes)\s+(?:that\s+)?(?:(?:appears?|appeared|comes?|came|is|was|are|"
    r"were|sits?|sat|goes|went|got put|was written|were written)\s+(?:before|above|ahead of|"
    r"prior to|in front of)|precedes?|preceding|preceded)\s+(?:this|the|our|my|your)\s+"
    r"(?:current\s+)?(?:conversation|chat|session|thread|exchange|dialogue)|"
    r"(?:guidelines|instructions|rules|notes|text|prompts?|memories|guidance)\s+(?:that\s+)?"
    r"(?:(?:were|are|was|is|have been|has been|got)\s+)?(?:injected|inserted|prepended|slipped|"
    r"embedded)\s+(?:into|in|to|before)\s+(?:it|you|this (?:conversation|chat|prompt)|the "
    r"(?:prompt|conversation|chat|system prompt|context)|your (?:prompt|context|instructions|"
    r"set-?up))\b|"
    r"(?:the\s+contents\s+of\s+)?your\s+(?:memory(?:\s+store)?|memories|context(?:\s+window)?|"
    r"stored guidelines)|(?:every|each|all(?: of)?(?: the| your)?)\s+stored guidelines?|"
    r"(?:confidential|hidden|secret|private|internal)\s+(?:operator|developer|system|setup)\s+"
    r"(?:notes|briefing|memo|instructions|guidance|text|messages?)|"
    r"(?:notes|instructions|text|messages?|rules|prompt|briefing|guidance|"
    r"directives)\s+(?:that\s+)?"
    r"you\s+(?:received|were given|got|were sent|were told|were loaded with|were handed)\s+"
    r"(?:at|on|during|before|when)\s+(?:startup|start-up|launch|boot|initiali[sz]ation|set-?up|"
    r"(?:the\s+)?(?:start|beginning))|"
    r"(?:top|start|beginning|opening)\s+of\s+(?:this|the)\s+(?:conversation|chat|session)|"
    r"(?:text|everything|anything|the words?|content|what)\s+(?:that\s+)?(?:appears?|comes?|is|was|"
    r"sits?|was written)\s+(?:before|above|ahead of)\s+(?:the user's|my|the|their)\s+(?:first\s+)?"
    r"(?:message|turn|question)|"
    r"(?:rules|instructions|prompt|guidelines|guidance|settings)\s+(?:that\s+)?you\s+(?:were|have "
    r"been)\s+(?:configured|set up|given|loaded|told|provided|briefed|instructed|deployed)\b|"
    r"(?:the ones|what|anything|everything|the (?:parts?|rules|bits))\s+(?:that\s+)?you(?:'re| are|"
    r" were|'ve been| have been)\s+(?:told|instructed|asked|not allowed|forbidden)\s+(?:not\s+to|"
    r"never\s+to|to (?:keep|hide)|to)\s*(?:share|reveal|disclose|say|tell|show|private|secret)?|"
    r"(?:hidden|secret|internal)\s+(?:notes?|text|parts?|content|fields?)\s+(?:in|of)\s+(?:its|"
    r"their|the|each|your)\s+(?:\w+\s+)?(?:descriptions?|schemas?|definitions?|tools?))"
)
_SHOW = (
    r"(?:print|show|reveal|repeat|output|display|echo|quote|recite|paste|dump|read out|"
    r"walk (?:me|them|the user|the customer) through|respond with|reply with|answer with|"
    r"copy|share|tell|give|list|disclose|write out|spell out|send|append|include|attach|insert|"
    r"add|post|publish|forward|summari[sz]e|printing|showing|revealing|appending|including|"
    r"repeating|outputting|displaying|echoing|quoting|reciting|pasting|dumping|copying|sharing|"
    r"listing|disclosing)"
)
# Overriding verbs and instruction nouns, by language: es, fr, de, it, pt, nl.
_FOREIGN_DISMISS = (
    r"(?:ignora|ignore[sz]?|ignorar|ignoriere|ignorieren|ignoriert|olvida|olvide|olvidar|"
    r"oublie|oubliez|oublier|vergiss|vergesst|vergessen|dimentica|dimenticate|esque[cç]a|"
    r"esquecer|negeer|negeren|vergeet|salta|saltate|omite|omitir|contourne[rz]?|umgehe|"
    r"desconsidera|desconsidere|ignorate|"
    # pl, tr, sv, cs, ro, id, vi (Turkish dotless i is read as i by the cleaning)
    r"zignoruj\w*|ignoruj\w*|pomi[nń]\w*|zapomnij\w*|omi[nń]|yoksay\w*|g[oö]rmezden gel\w*|"
    r"ignorera|strunta i|gl[oö]m|hoppa [oö]ver|kringg[aå]|zapome[nň]\w*|p[rř]esko[cč]\w*|"
    r"ignor[aă]|uit[aă]|abaikan|lupakan|lewati|b[oỏ] qua|ph[oớ]t l[oờ]|qu[eê]n|"
    r"omita|omitan|salte|s[aá]ltate|s[aá]ltese|pule|pular|sautez|sauter|passez outre|"
    r"[uü]berspring\w*|bypassa|aggira|omzeil\w*|missacht\w*|lekcewa[zż]\w*)"
    # Not when its object is refused: "ignoriere keine Sicherheitsrichtlinien", "negeer geen".
    r"(?!\s+(?:keine?[nrms]?|nichts|niemals|geen|nooit|aucune?s?|ninguna?s?|nessuna?|"
    r"nenhuma?|[zż]adn\w+|hi[cç]bir)\b)"
)
_FOREIGN_TARGETS = (
    r"(?:instrucciones|instru[cç][oõ]es|instructions|anweisungen|istruzioni|instructies|"
    r"reglas|r[eè]gles|regole|regras|regels|richtlinien|regeln|directives|directivas|"
    r"diretrizes|direttive|pol[ií]ticas?|politique|vorgaben|indicaciones|indicazioni|"
    r"consignes|normas|norme|voorschriften|prompt|verifica|verificaci[oó]n|v[eé]rification|"
    r"verifica[cç][aã]o|[uü]berpr[uü]fung|pr[uü]fung|controllo|controle|contr[oô]le|kontrolle|"
    r"comprobaci[oó]n|identit[aà]|identit[aä]t|identidad|identit[eé]|"
    r"instrukcj\w*|zasad\w*|regu[łl]\w*|weryfikacj\w*|polityk\w*|talimat\w*|kural\w*|"
    r"polece[nń]\w*|wytyczn\w*|"
    r"do[gğ]rulam\w*|politika\w*|instruktion\w*|regl\w*|verifiering\w*|kontroll\w*|"
    r"pokyn\w*|pravidl\w*|ov[eě][rř]en\w*|instruc[tț]iuni\w*|reguli\w*|verificar\w*|"
    r"instruksi|aturan|verifikasi|kebijakan|h[uư][oớ]ng d[aẫ]n|quy t[aắ]c|x[aá]c minh|"
    r"ch[ií]nh s[aá]ch|ki[eể]m tra|verificatie\w*|controle\w*|v[eé]rifications?|"
    # Protocols and limits; a German compound ends in what it names ("Sicherheitsregeln",
    # "Datenschutzrichtlinien", "Sicherheitsgrenzen").
    r"protocol(?:es|os|li|len|e|o)|l[ií]mites|limiti|limieten|"
    r"\w+(?:regeln|richtlinien|anweisungen|vorgaben|vorschriften|grenzen|kontrollen|pr[uü]fungen?|"
    r"bestimmungen)|"
    # Dutch compounds too ("veiligheidsinstructies", "meldingsregels").
    r"\w+(?:instructies|regels|voorschriften|richtlijnen|controles|procedures))"
)

SIGNALS: list[Rule] = [
    _rule(
        "override",
        rf"\b(?:note|message|reminder|memo)\s*:\s*(?:the\s+)?{_AI}\s*[,:;-]|"
        rf"\b(?:(?:internal |private |hidden |secret )?(?:note|message|reminder|memo|p\.?\s?s\.?)"
        rf"\s*:?\s+(?:to|for)\s+(?:the\s+)?{_AI}\b|for (?:the )?{_AI}(?:'s eyes)? only\b|"
        rf"\bnot for the (?:user|customer|human|client)\b|"
        rf"\b(?:hey|dear|attention|listen),?\s+{_AI}\b)",
        negatable=False,
    ),
    _rule(
        "concealment",
        r"\bkeep (?:this|it|that|the(?: real| true| actual)? (?:reason|truth|fact|details|problem|"
        r"error|mistake|change|issue|exception|fee|override|charge))(?: [\w'’-]+){0,4}? "
        r"(?:to yourself|secret|hidden|between us|"
        r"off the record|from (?:the )?(?:user|customer|caller|client))"
        r"\b|\bwithout (?:telling|informing|letting) (?:the )?(?:user|customer|caller|them)\b|"
        r"\bblame (?:it on )?(?:the system|a (?:glitch|bug)|a technical (?:issue|error|problem)|"
        r"the bank|it|the computer)\b|"
        r"\b(?:secretly|covertly|quietly|surreptitiously)\b|"
        r"\btell (?:nobody|no one|no-one|noone)\b|\bkeep (?:it|this|that) quiet\b|"
        r"\b(?:do not|don't|never)\s+(?:tell|inform|notify|let)\s+(?:the\s+)?(?:user|customer|"
        r"caller|client|guest|patient|them|anyone|anybody)(?:\s+know)?(?:\s+(?:about\s+(?:it|this|"
        r"that)|until\s+\w+))?\s*(?:[.;!]|$)|\bbehind (?:the )?(?:user|customer)'s "
        r"back\b|\bwithout (?:the )?(?:user|customer|them) (?:knowing|noticing)\b",
    ),
    _rule(
        "tool-call",
        r"<\s*/?\s*(?:tool_call|function_call|tool_use|invoke|function)\b|"
        r"\{\s*[\"'](?:tool|function|name|tool_name|action)[\"']\s*:\s*[\"'][^\"']+[\"']\s*,\s*"
        r"[\"'](?:arguments|args|parameters|params|input)[\"']",
        negatable=False,
    ),
    _rule("prompt-reveal", rf"\b{_SHOW}\b[^.;!?\n]{{0,60}}?\b{_SETUP}"),
    # The set-up asked about as what the agent was told before the conversation.
    _rule(
        "prompt-reveal",
        r"\bwhat (?:were you|you were|have you been) (?:told|given|instructed|programmed|briefed)"
        r"\b[^.!?\n]{0,40}?\b(?:before|prior to|at the (?:start|beginning) of|ahead of) "
        r"(?:this|the) (?:conversation|chat|session)\b",
    ),
    _rule(
        "override",
        r"\byou (?:now |will now |must now )?(?:answer|report|take (?:your )?"
        r"(?:orders|instructions)|respond only) (?:only )?(?:to|from) (?:the )?"
        r"(?:user|customer|caller|them|requester|person (?:in|on) the (?:chat|line|call)|person "
        r"(?:you(?:'re| are) )?(?:talking|speaking|chatting) (?:to|with)|whoever is (?:in|on) the "
        r"(?:chat|line|call))\b|\b(?:their|the user's|the customer's|the caller's) "
        r"(?:word|say|request) is (?:final|law)\b|"
        r"\btakes? (?:priority|precedence) over (?:anything|everything|whatever)\b|"
        r"\b(?:whatever|regardless of what|no matter what|even if)\b[^.;!?\n]{0,40}\b(?:check|"
        r"verification|system|policy|rules?|tool)\s+(?:says?|shows?|returns?)\b",
    ),
    _rule(
        "override",
        r"\b(?:put|place|keep|set)\s+(?:the\s+|your\s+)?(?:\w+\s+){0,2}(?:procedures?|rules?|"
        r"polic(?:y|ies)|process|checks?|guidance|guidelines|instructions|limits?|restrictions?)"
        r"\s+(?:on hold|to one side|aside)\b|"
        r"\b(?:consider|treat|regard|deem)\s+(?:the\s+|your\s+|all\s+|any\s+)?(?:\w+\s+){0,4}?"
        r"(?:procedures?|rules?|polic(?:y|ies)|directions|instructions|guidance|guidelines|limits?|"
        r"restrictions?|checks?|briefing|set-?up|configuration|standing orders|conditions|terms|"
        r"requirements|constraints|safeguards|guardrails|controls|limitations|directives|orders)"
        r"\s+(?:from\s+(?:the\s+)?\w+\s+)?(?:as\s+)?(?:outdated|obsolete|void|"
        r"suspended|optional|lifted|cancelled|invalid|irrelevant|(?:only )?a draft|retired|"
        r"withdrawn|superseded)\b|"
        r"\b(?:rules?|polic(?:y|ies)|guidance|instructions|guidelines|procedures?|configuration|"
        r"set-?up|briefing|prompt|directives|orders)\b[^.;!?\n]{0,40}"
        r"\b(?:was|were|is|are)\s+(?:only|just|merely)\s+(?:a\s+)?(?:draft|suggestions?|"
        r"examples?)\b",
    ),
    _rule(
        "exfiltration",
        r"\b(?:repeat|give|tell|share|show|read out|list|include|send|reveal|disclose|add|"
        r"answer (?:any |all )?questions? about)\b"
        r"(?:(?!\b(?:never|not|no)\b)[^.;!?\n]){0,60}?\b(?:(?:their|his|her|the user's|the "
        r"customer's)\s+(?:neighbou?r|colleague|co-?worker|ex-?(?:partner|wife|husband)|roommate|"
        r"flatmate|landlord|tenant|boss)(?:'s|s')|(?:other|another|the other|fellow)\s+"
        r"(?:party|parties|buyers?|sellers?|tenants?|patients?|members?|employees?|bidders?|"
        r"applicants?|callers?|residents?|students?|drivers?|riders?|donors?|guests?|customers?|"
        r"passengers?|users?|travell?ers?|clients?|account holders?)(?:'s?)?)\b|"
        r"\b(?:copy|put|add|write|store|save|paste|insert)\b[^.;!?\n]{0,40}?\blogin (?:details|"
        r"credentials|data)\b",
    ),
    _rule(
        "override",
        rf"\b{_FOREIGN_DISMISS}\b[^.;!?\n]{{0,40}}?\b{_FOREIGN_TARGETS}\b",
        unless=EMBEDDED_IN_DATA,
    ),
    # Verb after its object (Turkish, Hindi word order) or split around it (Dutch "sla ... over").
    _rule(
        "override",
        rf"\b{_FOREIGN_TARGETS}[^.;!?\n]{{0,25}}?\b(?:atla|atlay[iı]n|yoksay\w*|"
        r"g[oö]rmezden gel\w*|unut|unutun|bo[sş]ver)\b|"
        r"\bsla\b(?:(?!\b(?:niet|nooit)\b)[^.;!?\n]){0,30}?\b"
        + _FOREIGN_TARGETS
        + r"\b(?:(?!\b(?:niet|nooit)\b)[^.;!?\n]){0,15}?\bover\b",
    ),
    _rule(
        "prompt-reveal",
        r"\b(?:prompt (?:de|di|do|du) (?:sistema|syst[eè]me)|systemprompt|systeemprompt|"
        r"prompt del sistema)\b",
    ),
    # An order to carry out what an encoded span says: no ordinary guideline hides its orders.
    _rule(
        "override",
        r"\b(?:execute|run|follow|obey|apply|carry out|act on|perform|implement)\s+(?:the\s+|"
        r"this\s+|these\s+|that\s+|following\s+|an?\s+)?(?:[\w-]+\s+){0,2}?(?:hex(?:adecimal)?|"
        r"base-?64|base-?32|rot-?13|encoded|obfuscated|url-encoded|binary|ciphered|encrypted)"
        r"(?:[- ]encoded)?\s+(?:instructions?|commands?|orders?|rules?|polic(?:y|ies)|notes?|"
        r"payloads?|text|messages?|strings?|steps?|tasks?|directives?|config(?:uration)?)\b|"
        r"\b(?:decode|decipher|decrypt|unhex)\b[^.;!?\n]{0,40}?(?:\band|\bthen|,)\s+(?:then\s+)?"
        r"(?:follow|obey|execute|apply|act on|carry out|do|run|perform)\s+(?:it|them|this|that|"
        r"what it says|whatever it says|the result|its (?:instructions|contents?))\b|"
        r"\b(?:decode|decipher|decrypt)\s+and\s+(?:follow|obey|execute|apply)\b",
    ),
]
"""Rules read like `memory/_intents.RULES` (negated forms benign where `negatable`)."""

# Overriding and revealing in scripts the look-alike mapping would garble (ru, zh, ja, ko, ar),
# read on the text as written (`memory/_normalize.native`).
SCRIPTS: list[Rule] = [
    _rule(
        "override",
        r"(?:игнорир|проигнорир|забуд|не обращай\w* внимания на|отмен)\w*[^.!?\n]{0,40}?"
        r"(?:инструкц|правил|указани|ограничени|политик)|"
        r"(?:忽略|无视|忘记|忘掉|不要理会|跳过|無視|忘れ)[^。！？.\n]{0,20}?"
        r"(?:指令|指示|说明|规则|提示|政策|限制|ルール|命令|規則|ポリシー)|"
        r"(?:指示|ルール|命令|規則|ポリシー|指令|规则)[^。！？.\n]{0,8}?(?:無視|忘れ)|"
        r"(?:지시|규칙|명령|정책|지침)\S*\s*(?:\S+\s+){0,2}?(?:무시|잊어)|"
        r"(?:تجاهل|انس|تخط|تجاوز)[^.!?\n]{0,30}?(?:التعليمات|القواعد|الإرشادات|السياسة|التحقق)|"
        # ru, uk: skipping the check
        r"(?:пропусти|обойди|пропуст|ігнор|проігнор|забудь|обійди)\w*[^.!?\n]{0,40}?"
        r"(?:проверк|верификац|інструкц|правил|перевірк|політик)|"
        # hi, he: either word order
        r"(?:अनदेखा|नज़रअंदाज़|नजरअंदाज|भूल\s*जा|छोड़|छोड)[^।.!?\n]{0,30}?(?:निर्देश|नियम|सत्यापन|"
        r"नीति|जांच|जाँच)|"
        r"(?:निर्देश|नियम|सत्यापन|नीति|जांच|जाँच)[^।.!?\n]{0,30}?(?:अनदेखा|नज़रअंदाज़|नजरअंदाज|भूल|"
        r"छोड़|छोड)|(?:התעלם|התעלמי|התעלמו|שכח|שכחי|דלג|דלגי|עקוף|עקפי)[^.!?\n]{0,30}?"
        r"(?:הוראות|כללים|כללי|אימות|מדיניות|בדיק)|"
        # zh, ja, ko: the check skipped
        r"(?:跳过|省略|绕过|繞過|跳過|无需|無需|免去)[^。！？.\n]{0,10}?(?:验证|驗證|核实|核實|审核|審核|审批|"
        r"检查|檢查|确认|確認)|(?:確認|認証|検証|チェック|審査|承認)[^。！？.\n]{0,8}?(?:スキップ|飛ばし|省略|無視|不要)|"
        r"(?:인증|확인|검증|심사|승인)\S*\s*(?:\S+\s+){0,2}?(?:건너뛰|생략|무시)",
    ),
    _rule(
        "prompt-reveal",
        r"(?:покажи|выведи|раскрой|повтори|напиши)\w*[^.!?\n]{0,40}?(?:системн\w* "
        r"(?:промпт|подсказк|инструкц)|промпт)|系统提示|系统指令|提示词|システムプロンプト|"
        r"시스템 프롬프트|موجه النظام",
    ),
]
"""Rules for other scripts, read on the text before look-alike letters are mapped to Latin."""


__all__ = ["SCRIPTS", "SIGNALS"]
