/**
 * Ordered SQL migrations. Append only: a migration that has shipped is never edited; a change is a new
 * entry with the next id. Times are epoch milliseconds.
 */
export interface Migration {
  id: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    id: 1,
    name: 'races, bindings, site configs, users, tokens',
    sql: `
      CREATE TABLE races (
        race_id    TEXT PRIMARY KEY,
        race_name  TEXT NOT NULL,
        info_json  TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE domain_bindings (
        domain_name TEXT PRIMARY KEY,
        race_id     TEXT NOT NULL REFERENCES races (race_id) ON DELETE CASCADE,
        bound_at    INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX domain_bindings_race_id ON domain_bindings (race_id);

      CREATE TABLE site_configs (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        domain_name  TEXT NOT NULL,
        md5          TEXT NOT NULL CHECK (md5 GLOB '[0-9a-f]*' AND length(md5) = 32),
        byte_length  INTEGER NOT NULL,
        published_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX site_configs_latest ON site_configs (domain_name, published_at DESC, id DESC);
      CREATE INDEX site_configs_md5 ON site_configs (md5);

      CREATE TABLE users (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        phone         TEXT UNIQUE,
        email         TEXT UNIQUE COLLATE NOCASE,
        password_hash TEXT,
        created_at    INTEGER NOT NULL
      ) STRICT;

      CREATE TABLE tokens (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        token_hash TEXT NOT NULL UNIQUE,
        user_id    INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        revoked_at INTEGER
      ) STRICT;
      CREATE INDEX tokens_user_id ON tokens (user_id);
    `,
  },
  {
    id: 2,
    name: 'accounts: lockout, verification codes, slider challenges, outbox',
    sql: `
      ALTER TABLE users ADD COLUMN failed_logins INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE users ADD COLUMN locked_until INTEGER NOT NULL DEFAULT 0;

      CREATE TABLE verification_codes (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        request_hash TEXT NOT NULL UNIQUE,
        purpose      TEXT NOT NULL CHECK (purpose IN ('login', 'register', 'reset')),
        channel      TEXT NOT NULL CHECK (channel IN ('sms', 'email')),
        destination  TEXT NOT NULL,
        code_hash    TEXT NOT NULL,
        ip           TEXT NOT NULL,
        created_at   INTEGER NOT NULL,
        expires_at   INTEGER NOT NULL,
        attempts     INTEGER NOT NULL DEFAULT 0,
        closed_at    INTEGER
      ) STRICT;
      CREATE INDEX verification_codes_destination ON verification_codes (destination, purpose, created_at);
      CREATE INDEX verification_codes_ip ON verification_codes (ip, created_at);

      CREATE TABLE captcha_challenges (
        session_id   TEXT PRIMARY KEY,
        target_x     INTEGER NOT NULL,
        created_at   INTEGER NOT NULL,
        attempted_at INTEGER,
        pass_hash    TEXT,
        passed_at    INTEGER,
        redeemed_at  INTEGER
      ) STRICT;
      CREATE INDEX captcha_challenges_created ON captcha_challenges (created_at);

      CREATE TABLE outbox (
        id          INTEGER PRIMARY KEY AUTOINCREMENT,
        channel     TEXT NOT NULL CHECK (channel IN ('sms', 'email')),
        destination TEXT NOT NULL,
        subject     TEXT NOT NULL,
        body        TEXT NOT NULL,
        created_at  INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX outbox_latest ON outbox (created_at DESC, id DESC);
    `,
  },
  {
    id: 3,
    name: 'race centre: registrations, results with splits, photos',
    sql: `
      CREATE TABLE registrations (
        id                     INTEGER PRIMARY KEY AUTOINCREMENT,
        race_id                TEXT NOT NULL,
        bib                    TEXT,
        name                   TEXT NOT NULL,
        gender                 INTEGER NOT NULL CHECK (gender IN (0, 1, 2)),
        birthday               TEXT NOT NULL,
        cert_type              INTEGER NOT NULL CHECK (cert_type BETWEEN 1 AND 4),
        cert_hash              TEXT NOT NULL,
        cert_masked            TEXT NOT NULL,
        phone_masked           TEXT NOT NULL,
        emergency_name         TEXT NOT NULL,
        emergency_phone_masked TEXT NOT NULL,
        item                   TEXT NOT NULL,
        status                 INTEGER NOT NULL CHECK (status BETWEEN 0 AND 5),
        orders_json            TEXT NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX registrations_bib ON registrations (race_id, bib) WHERE bib IS NOT NULL;
      CREATE UNIQUE INDEX registrations_cert ON registrations (race_id, cert_hash);

      CREATE TABLE results (
        id             INTEGER PRIMARY KEY AUTOINCREMENT,
        race_id        TEXT NOT NULL,
        bib            TEXT NOT NULL,
        name           TEXT NOT NULL,
        gender         INTEGER NOT NULL CHECK (gender IN (0, 1, 2)),
        cert_hash      TEXT NOT NULL,
        item           TEXT NOT NULL,
        gun_ms         INTEGER NOT NULL,
        chip_ms        INTEGER NOT NULL,
        rank_overall   INTEGER NOT NULL,
        rank_gender    INTEGER NOT NULL,
        rank_age_group INTEGER NOT NULL,
        age_group      TEXT NOT NULL,
        finishers      INTEGER NOT NULL,
        splits_json    TEXT NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX results_bib ON results (race_id, bib);
      CREATE INDEX results_cert ON results (cert_hash, race_id);
      CREATE INDEX results_item ON results (race_id, item, chip_ms);

      CREATE TABLE photos (
        id       INTEGER PRIMARY KEY AUTOINCREMENT,
        race_id  TEXT NOT NULL,
        bib      TEXT NOT NULL,
        url      TEXT NOT NULL,
        taken_at TEXT NOT NULL
      ) STRICT;
      CREATE INDEX photos_bib ON photos (race_id, bib);
    `,
  },
  {
    id: 4,
    name: 'rate limits shared by every worker process',
    sql: `
      CREATE TABLE rate_hits (
        bucket_key TEXT NOT NULL,
        at         INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX rate_hits_key ON rate_hits (bucket_key, at);
      CREATE INDEX rate_hits_at ON rate_hits (at);
    `,
  },
  {
    id: 5,
    name: 'registration channel (2 third-party, 3 web, 5 app) and third-party platform name',
    sql: `
      ALTER TABLE registrations ADD COLUMN channel INTEGER NOT NULL DEFAULT 3 CHECK (channel IN (2, 3, 5));
      ALTER TABLE registrations ADD COLUMN channel_name TEXT;
      ALTER TABLE registrations ADD COLUMN channel_name_en TEXT;
    `,
  },
  {
    id: 6,
    name: 'certificate-number hashes keyed with the data folder secret',
    // keyed_cert_hash is registered by openDatabase (database.ts): HMAC-SHA256 of the old digest.
    sql: `
      UPDATE registrations SET cert_hash = keyed_cert_hash(cert_hash);
      UPDATE results SET cert_hash = keyed_cert_hash(cert_hash);
    `,
  },
  {
    id: 7,
    name: 'uploads record who uploaded what; wrong code guesses counted per source',
    // code_guesses: wrong tries on one code from one source (an IP, IPv6 grouped by /64) other than the one
    // that requested it; verification_codes.stranger_attempts: all of them together (routes/user-center/codes.ts).
    sql: `
      CREATE TABLE uploads (
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        user_id       INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        stored_name   TEXT NOT NULL UNIQUE,
        original_name TEXT NOT NULL,
        kind          TEXT NOT NULL CHECK (kind IN ('image', 'file')),
        bytes         INTEGER NOT NULL,
        sha256        TEXT NOT NULL,
        ip            TEXT NOT NULL,
        created_at    INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX uploads_user ON uploads (user_id, created_at);

      ALTER TABLE verification_codes ADD COLUMN stranger_attempts INTEGER NOT NULL DEFAULT 0;
      CREATE TABLE code_guesses (
        code_id INTEGER NOT NULL REFERENCES verification_codes (id) ON DELETE CASCADE,
        source  TEXT NOT NULL,
        wrong   INTEGER NOT NULL,
        PRIMARY KEY (code_id, source)
      ) STRICT;
    `,
  },
];
