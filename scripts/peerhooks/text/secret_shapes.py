"""What a secret looks like, as secret scanners know it (gitleaks' and detect-secrets' families,
learnt from their rule sets; the tables are ours): the characters token bodies are made of,
providers' token prefixes, webhook URLs, the names whose value is a secret, the values that only
refer to one, and the short flags that take a password. Data, and one pure question on a name
(name_kind); peerhooks.text.redact finds these shapes in a text in linear time.
"""
DIGITS = "0123456789"
UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
LOWER = "abcdefghijklmnopqrstuvwxyz"
ALNUM = DIGITS + UPPER + LOWER
HEX = DIGITS + "abcdefABCDEF"
TOKEN = ALNUM + "_-"  # base64url, and most providers' token bodies
BASE64 = ALNUM + "+/"
NAME_CHARS = ALNUM + "_-."  # a variable, key or flag name


# (prefix, characters of the body, least body length). The prefixes are those providers document
# (and gitleaks' rules list); the least lengths stay below the real ones so that a token cut short
# by a display limit is still taken out.
TOKEN_PREFIXES = (
    ("sk-ant-", TOKEN, 20), ("sk-proj-", TOKEN, 20), ("sk-svcacct-", TOKEN, 20),
    ("sk-admin-", TOKEN, 20), ("sk-", ALNUM, 20),  # Anthropic, OpenAI
    ("sk_live_", ALNUM, 10), ("sk_test_", ALNUM, 10), ("sk_prod_", ALNUM, 10),
    ("rk_live_", ALNUM, 10), ("rk_test_", ALNUM, 10), ("rk_prod_", ALNUM, 10),
    ("whsec_", BASE64 + "=", 20),  # Stripe
    ("ghp_", ALNUM, 30), ("gho_", ALNUM, 30), ("ghu_", ALNUM, 30), ("ghs_", ALNUM, 30),
    ("ghr_", ALNUM, 30), ("github_pat_", ALNUM + "_", 22),  # GitHub
    ("glpat-", TOKEN + ".", 20), ("gldt-", TOKEN, 20), ("glrt-", TOKEN + ".", 20),
    ("glptt-", HEX, 30), ("glsoat-", TOKEN, 20), ("glcbt-", TOKEN, 20), ("glft-", TOKEN, 20),
    ("glimt-", TOKEN, 20), ("gloas-", TOKEN, 30), ("glagent-", TOKEN, 30),  # GitLab
    ("xoxb-", TOKEN, 10), ("xoxp-", TOKEN, 10), ("xoxa-", TOKEN, 10), ("xoxr-", TOKEN, 10),
    ("xoxs-", TOKEN, 10), ("xoxo-", TOKEN, 10), ("xoxe-", TOKEN, 10), ("xoxe.", TOKEN, 10),
    ("xapp-", TOKEN, 10),  # Slack
    ("AKIA", UPPER + DIGITS, 16), ("ASIA", UPPER + DIGITS, 16), ("ABIA", UPPER + DIGITS, 16),
    ("ACCA", UPPER + DIGITS, 16), ("A3T", UPPER + DIGITS, 16),  # AWS access key ids
    ("AIza", TOKEN, 30), ("ya29.", TOKEN + ".", 20),  # Google
    ("npm_", ALNUM, 30), ("pypi-AgEI", TOKEN, 40), ("rubygems_", HEX, 40),  # registries
    ("hf_", ALNUM, 30), ("api_org_", ALNUM, 30),  # Hugging Face
    ("SG.", TOKEN + ".", 40),  # SendGrid
    ("dop_v1_", HEX, 40), ("doo_v1_", HEX, 40), ("dor_v1_", HEX, 40),  # DigitalOcean
    ("shpat_", HEX, 30), ("shpca_", HEX, 30), ("shppa_", HEX, 30), ("shpss_", HEX, 30),
    ("lin_api_", ALNUM, 30), ("PMAK-", TOKEN, 30), ("dapi", HEX, 32), ("pul-", HEX, 40),
    ("hvs.", TOKEN, 40), ("hvb.", TOKEN, 40),  # Vault
    ("dp.pt.", ALNUM, 30), ("dp.st.", ALNUM, 30), ("dp.ct.", ALNUM, 30),  # Doppler
    ("ntn_", ALNUM, 30), ("secret_", ALNUM, 40),  # Notion
    ("glc_", BASE64 + "=", 30), ("glsa_", TOKEN, 30),  # Grafana
    ("sntrys_", BASE64 + "=_", 40), ("sntryu_", HEX, 40),  # Sentry
    ("pplx-", ALNUM, 40), ("gsk_", ALNUM, 40), ("r8_", ALNUM, 30),  # AI APIs
    ("xkeysib-", TOKEN, 40), ("key-", HEX, 32), ("SK", HEX, 32),  # Brevo, Mailgun, Twilio
    ("pscale_tkn_", TOKEN + ".", 30), ("pscale_pw_", TOKEN + ".", 30),
    ("pscale_oauth_", TOKEN + ".", 30),  # PlanetScale
    ("sq0atp-", TOKEN, 20), ("sq0csp-", TOKEN, 20), ("ATATT3", TOKEN + "=", 60),
    ("dt0c01.", ALNUM + ".", 40), ("ops_eyJ", BASE64 + "=", 60), ("AGE-SECRET-KEY-1", ALNUM, 50),
    ("sha256~", TOKEN, 40), ("fo1_", TOKEN, 40), ("tk-us-", TOKEN, 40), ("pnu_", ALNUM, 30),
    ("rdme_", ALNUM, 40), ("AKCp", ALNUM, 60), ("LTAI", ALNUM, 20), ("figd_", TOKEN, 30),
    ("NRAK-", ALNUM, 20), ("NRII-", TOKEN, 20), ("duffel_live_", TOKEN, 40),
    ("duffel_test_", TOKEN, 40), ("shippo_live_", HEX, 40), ("shippo_test_", HEX, 40),
    ("sm_pat_", ALNUM, 16), ("sm_aat_", ALNUM, 16), ("sm_sat_", ALNUM, 16),
)

# (fixed part, characters of the secret part after it, least length): the URL is the credential.
WEBHOOK_URLS = (
    ("hooks.slack.com/services/", ALNUM + "/", 20),
    ("hooks.slack.com/workflows/", ALNUM + "/", 20),
    ("hooks.slack.com/triggers/", ALNUM + "/", 20),
    ("discord.com/api/webhooks/", TOKEN + "/", 20),
    ("discordapp.com/api/webhooks/", TOKEN + "/", 20),
    (".webhook.office.com/webhookb2/", TOKEN + "@/", 20),
)


# A name is split into words (snake, kebab, dotted, camelCase); a word ending in one of these names a
# secret (`DB_PASSWORD`, `adminPassword`, `authToken`, `x-api-key`, `clientSecret`).
_SECRET_ENDINGS = ("password", "passwd", "passphrase", "secret", "secrets", "token", "credential",
                   "credentials", "apikey", "secretkey", "privatekey", "accesskey", "authkey")
_SECRET_WORDS = frozenset(["pass", "pw", "creds", "sig", "signature"])  # `DB_PASS`, `?sig=`
# Word pairs that name a key: `SESSION_KEY`, `api_key`, `EncryptionKey`.
_KEY_QUALIFIERS = frozenset(["api", "private", "access", "secret", "session", "encryption", "signing",
                             "master", "auth", "client", "license", "account", "sharedaccess", "shared",
                             "stripe", "app", "consumer", "webhook", "service", "storage", "decryption"])
# A last word that says the value is not the secret but something about it.
_NOT_THE_SECRET = frozenset([
    "id", "ids", "name", "names", "type", "file", "files", "path", "dir", "url", "uri", "endpoint",
    "count", "length", "len", "size", "limit", "max", "min", "ttl", "timeout", "expiry", "expires",
    "env", "var", "header", "field", "prefix", "format", "policy", "version", "mode", "enabled",
    "required", "usage", "budget", "hash", "fingerprint", "algorithm", "alg", "rotation", "store",
    "manager", "provider", "reset", "hint", "label", "pattern", "regex", "strength", "character",
])
# any value is masked / any but a plain word (`HOOKS_KEY = "hooks"`) / only one that looks random
STRONG, ENV_KEY, WEAK = "strong", "env-key", "weak"


def _words(name):
    """A name's words, lowercased: `DB_PASS` -> db pass, `adminPassword` -> admin password."""
    words, current = [], ""
    previous = ""
    for char in name:
        if char in "_-.":
            if current:
                words.append(current)
            current = ""
        elif char in UPPER and previous in LOWER and current:
            words.append(current)
            current = char.lower()
        else:
            current += char.lower()
        previous = char
    if current:
        words.append(current)
    return words


def name_kind(name):
    """STRONG when a name says its value is a secret, WEAK when it may be one (`sort_key`,
    `auth`), else None (`token_count`, `password_file`, `max_tokens`, `pwd`)."""
    words = _words(name.lstrip("-"))
    if not words or words[-1] in _NOT_THE_SECRET:
        return None
    if words == ["pwd"]:
        return None  # the working folder
    for index, word in enumerate(words):
        if word in _SECRET_WORDS or word.endswith(_SECRET_ENDINGS) or (word == "pwd" and len(words) > 1):
            return STRONG
        if word == "key" and index > 0 and words[index - 1] in _KEY_QUALIFIERS:
            return STRONG
    last = words[-1]
    if last == "key" and name.lstrip("-").upper() == name.lstrip("-"):
        return ENV_KEY  # an environment variable: `STRIPE_KEY`, `MAPBOX_KEY`
    if last.endswith("key") or last in ("auth", "authorization"):
        return WEAK
    return None


NAME_HINTS = ("pass", "pw", "secret", "token", "cred", "key", "sig", "auth")  # in every secret name

# Values that are a reference to a secret, not the secret.
PLACEHOLDER_STARTS = ("$", "{{", "%", "<", "*", "process.env", "os.environ", "env.", "self.", "this.")
NOT_VALUES = frozenset(["none", "null", "nil", "true", "false", "undefined", "required", "optional",
                        "str", "string", "bool", "int", "bytes"])


# (program, flag, value glued to the flag, value after a space): where a short flag takes a password.
SHORT_PASSWORD_FLAGS = (
    ("mysql", "-p", True, False),  # mysql, mysqldump, mysqladmin: `-p secret` prompts, then a database
    ("mariadb", "-p", True, False),
    ("sshpass", "-p", True, True),
    ("redis-cli", "-a", True, True),
    ("docker login", "-p", True, True),
    ("curl", "-u", True, True),  # user:password
)
