import { type Kysely, sql } from 'kysely';

// MariaDB runs one statement per query, so each change is its own statement.
export async function up(db: Kysely<any>): Promise<void> {
  // When the password last changed; a session created before it is no longer valid.
  await sql`ALTER TABLE users ADD COLUMN password_changed_at datetime(3) NULL`.execute(db);
  await sql`ALTER TABLE portal_sessions ADD COLUMN last_seen_at datetime(3) NULL`.execute(db);
  // Codes are issued per session; created_at orders them (the newest one counts).
  await sql`ALTER TABLE portal_otp_codes ADD COLUMN created_at datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3)`.execute(
    db,
  );
  // The project code makes the admin deep link ({base_url}/app/settings/dev-projects?code=...).
  await sql`ALTER TABLE tickets ADD COLUMN dev_project_code varchar(64) NULL`.execute(db);
  await sql`ALTER TABLE tickets ADD COLUMN dev_project_url varchar(500) NULL`.execute(db);
  // Failed logins, counted per e-mail and per client address to slow down password guessing.
  await sql`
    CREATE TABLE portal_login_failures (
      id bigint unsigned AUTO_INCREMENT PRIMARY KEY,
      email varchar(255) NOT NULL,
      ip varchar(64) NOT NULL,
      created_at datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
      INDEX portal_login_failures_email (email, created_at),
      INDEX portal_login_failures_ip (ip, created_at)
    ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DROP TABLE portal_login_failures`.execute(db);
  await sql`ALTER TABLE tickets DROP COLUMN dev_project_url`.execute(db);
  await sql`ALTER TABLE tickets DROP COLUMN dev_project_code`.execute(db);
  await sql`ALTER TABLE portal_otp_codes DROP COLUMN created_at`.execute(db);
  await sql`ALTER TABLE portal_sessions DROP COLUMN last_seen_at`.execute(db);
  await sql`ALTER TABLE users DROP COLUMN password_changed_at`.execute(db);
}
