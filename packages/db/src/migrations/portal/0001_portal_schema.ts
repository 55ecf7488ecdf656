import { type Kysely, sql } from 'kysely';

// MariaDB runs one statement per query, so each table is its own statement.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    CREATE TABLE users (
      id int unsigned AUTO_INCREMENT PRIMARY KEY,
      email varchar(255) NOT NULL UNIQUE,
      name varchar(255) NOT NULL DEFAULT '',
      password_hash varchar(100) NOT NULL,
      is_active tinyint(1) NOT NULL DEFAULT 1,
      role enum('admin', 'developer', 'client') NOT NULL DEFAULT 'client',
      phone varchar(50) NULL,
      created_at datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
      updated_at datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3)
    ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`.execute(db);
  await sql`
    CREATE TABLE portal_sessions (
      id char(64) PRIMARY KEY,
      user_id int unsigned NOT NULL,
      second_factor_passed tinyint(1) NOT NULL DEFAULT 0,
      expires_at datetime(3) NOT NULL,
      created_at datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
      ip varchar(64) NULL,
      user_agent varchar(255) NULL,
      CONSTRAINT portal_sessions_user FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE,
      INDEX portal_sessions_expiry (expires_at)
    ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`.execute(db);
  await sql`
    CREATE TABLE tickets (
      id int unsigned AUTO_INCREMENT PRIMARY KEY,
      ticket_number varchar(32) NOT NULL UNIQUE,
      user_id int unsigned NOT NULL,
      tenant_id varchar(50) NULL,
      subject varchar(255) NOT NULL,
      description text NOT NULL,
      category enum('bug', 'feature', 'question', 'other') NOT NULL DEFAULT 'question',
      priority enum('low', 'normal', 'high', 'urgent') NOT NULL DEFAULT 'normal',
      status enum('open', 'in_progress', 'waiting', 'resolved', 'closed') NOT NULL DEFAULT 'open',
      dev_project_id bigint NULL,
      dev_project_branch varchar(255) NULL,
      created_at datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
      updated_at datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3),
      CONSTRAINT tickets_user FOREIGN KEY (user_id) REFERENCES users(id)
    ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`.execute(db);
  await sql`
    CREATE TABLE ticket_messages (
      id int unsigned AUTO_INCREMENT PRIMARY KEY,
      ticket_id int unsigned NOT NULL,
      user_id int unsigned NOT NULL,
      body text NOT NULL,
      created_at datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),
      CONSTRAINT ticket_messages_ticket FOREIGN KEY (ticket_id) REFERENCES tickets(id) ON DELETE CASCADE,
      CONSTRAINT ticket_messages_user FOREIGN KEY (user_id) REFERENCES users(id)
    ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`.execute(db);
  await sql`
    CREATE TABLE portal_otp_codes (
      id int unsigned AUTO_INCREMENT PRIMARY KEY,
      session_id char(64) NOT NULL,
      code_hash char(64) NOT NULL,
      attempts int NOT NULL DEFAULT 0,
      expires_at datetime(3) NOT NULL,
      used tinyint(1) NOT NULL DEFAULT 0,
      CONSTRAINT portal_otp_session FOREIGN KEY (session_id) REFERENCES portal_sessions(id) ON DELETE CASCADE
    ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['portal_otp_codes', 'ticket_messages', 'tickets', 'portal_sessions', 'users']) {
    await sql`DROP TABLE ${sql.table(t)}`.execute(db);
  }
}
