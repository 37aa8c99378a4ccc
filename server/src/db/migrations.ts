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
];
