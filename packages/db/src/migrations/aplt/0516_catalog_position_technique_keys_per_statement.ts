import { type Kysely, sql } from 'kysely';

/**
 * The techniques of a print position (aplt_product_techniques) keep their references through
 * statement triggers instead of foreign keys (issue #17), as price tiers do since migration 0515.
 *
 * A print-data feed of 100,000 products writes 400,000 position techniques, and each ran three
 * foreign-key checks one row at a time (position, product, technique). The rules now hold once
 * per statement:
 * - New rows lock their position and technique in one statement, as the keys did (a position's
 *   lock also holds its product, whose delete would have to delete the position); a distinct key
 *   that locked no row refuses the statement with SQLSTATE 23503 (a position of that product or a
 *   technique that does not exist). The product needs no check of its own: the position's product is
 *   the row's product, and positions keep their real foreign key to products.
 * - A row's product, technique or position changed by UPDATE is checked per row.
 * - Deleting or truncating positions or techniques deletes their rows (was ON DELETE CASCADE; a
 *   deleted product takes its positions and so these rows along), and a position or technique
 *   whose key changes while rows name it is refused (was NO ACTION).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    ALTER TABLE aplt_product_techniques DROP CONSTRAINT aplt_product_techniques_position_fk,
      DROP CONSTRAINT aplt_product_techniques_product_id_fkey,
      DROP CONSTRAINT aplt_product_techniques_technique_id_fkey;

    CREATE FUNCTION aplt_product_techniques_check_new_keys() RETURNS trigger
      LANGUAGE plpgsql AS $$
    DECLARE
      missing bigint;
      bad_product bigint;
      bad_position bigint;
      bad_technique bigint;
    BEGIN
      -- One pass per parent: every distinct key locks the one row it references; a key that
      -- locked nothing references nothing.
      WITH kp AS MATERIALIZED (SELECT DISTINCT n.print_position_id, n.product_id FROM new_rows n),
        kt AS MATERIALIZED (SELECT DISTINCT n.technique_id FROM new_rows n),
        lp AS (SELECT pp.id FROM aplt_print_positions pp
          JOIN kp ON pp.id = kp.print_position_id AND pp.product_id = kp.product_id FOR KEY SHARE OF pp),
        lt AS (SELECT t.id FROM aplt_techniques t JOIN kt ON t.id = kt.technique_id FOR KEY SHARE OF t)
      SELECT (SELECT count(*) FROM kp) - (SELECT count(*) FROM lp) + (SELECT count(*) FROM kt)
        - (SELECT count(*) FROM lt) INTO missing;
      IF missing > 0 THEN
        SELECT k.product_id, k.print_position_id, k.technique_id INTO bad_product, bad_position, bad_technique
          FROM (SELECT DISTINCT n.product_id, n.print_position_id, n.technique_id FROM new_rows n) k
          WHERE NOT EXISTS (SELECT 1 FROM aplt_print_positions pp WHERE pp.id = k.print_position_id
              AND pp.product_id = k.product_id)
            OR NOT EXISTS (SELECT 1 FROM aplt_techniques t WHERE t.id = k.technique_id)
          LIMIT 1;
        RAISE EXCEPTION 'insert or update on table "aplt_product_techniques" violates its reference to aplt_print_positions or aplt_techniques'
          USING ERRCODE = 'foreign_key_violation', TABLE = 'aplt_product_techniques',
            DETAIL = format('Key (product_id, print_position_id, technique_id)=(%s, %s, %s) is not present.',
              bad_product, bad_position, bad_technique);
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER aplt_product_techniques_check_new_keys_trg
      AFTER INSERT ON aplt_product_techniques REFERENCING NEW TABLE AS new_rows
      FOR EACH STATEMENT EXECUTE FUNCTION aplt_product_techniques_check_new_keys();

    CREATE FUNCTION aplt_product_techniques_check_changed_keys() RETURNS trigger
      LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM 1 FROM aplt_print_positions pp WHERE pp.id = NEW.print_position_id AND pp.product_id = NEW.product_id
        FOR KEY SHARE OF pp;
      IF FOUND THEN
        PERFORM 1 FROM aplt_techniques t WHERE t.id = NEW.technique_id FOR KEY SHARE OF t;
      END IF;
      IF NOT FOUND THEN
        RAISE EXCEPTION 'insert or update on table "aplt_product_techniques" violates its reference to aplt_print_positions or aplt_techniques'
          USING ERRCODE = 'foreign_key_violation', TABLE = 'aplt_product_techniques',
            DETAIL = format('Key (product_id, print_position_id, technique_id)=(%s, %s, %s) is not present.',
              NEW.product_id, NEW.print_position_id, NEW.technique_id);
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER aplt_product_techniques_check_changed_keys_trg
      AFTER UPDATE OF product_id, technique_id, print_position_id ON aplt_product_techniques
      FOR EACH ROW WHEN ((OLD.product_id, OLD.technique_id, OLD.print_position_id)
        IS DISTINCT FROM (NEW.product_id, NEW.technique_id, NEW.print_position_id))
      EXECUTE FUNCTION aplt_product_techniques_check_changed_keys();

    -- The indexes on print_position_id and technique_id find the rows of a deleted parent.
    CREATE FUNCTION aplt_print_positions_delete_techniques() RETURNS trigger
      LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM aplt_product_techniques x USING old_rows o WHERE x.print_position_id = o.id;
      RETURN NULL;
    END $$;
    CREATE FUNCTION aplt_techniques_delete_product_techniques() RETURNS trigger
      LANGUAGE plpgsql AS $$
    BEGIN
      DELETE FROM aplt_product_techniques x USING old_rows o WHERE x.technique_id = o.id;
      RETURN NULL;
    END $$;
    CREATE FUNCTION aplt_catalog_truncate_product_techniques() RETURNS trigger
      LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM aplt_catalog_empty_child('aplt_product_techniques'); -- migration 0515
      RETURN NULL;
    END $$;
    CREATE TRIGGER aplt_print_positions_delete_techniques_trg
      AFTER DELETE ON aplt_print_positions REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION aplt_print_positions_delete_techniques();
    CREATE TRIGGER aplt_techniques_delete_product_techniques_trg
      AFTER DELETE ON aplt_techniques REFERENCING OLD TABLE AS old_rows
      FOR EACH STATEMENT EXECUTE FUNCTION aplt_techniques_delete_product_techniques();
    CREATE TRIGGER aplt_print_positions_truncate_techniques_trg
      AFTER TRUNCATE ON aplt_print_positions FOR EACH STATEMENT EXECUTE FUNCTION aplt_catalog_truncate_product_techniques();
    CREATE TRIGGER aplt_techniques_truncate_product_techniques_trg
      AFTER TRUNCATE ON aplt_techniques FOR EACH STATEMENT EXECUTE FUNCTION aplt_catalog_truncate_product_techniques();

    CREATE FUNCTION aplt_catalog_keep_technique_parent_key() RETURNS trigger
      LANGUAGE plpgsql AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM aplt_product_techniques x
          WHERE CASE TG_TABLE_NAME WHEN 'aplt_print_positions' THEN x.print_position_id = OLD.id
            ELSE x.technique_id = OLD.id END) THEN
        RAISE EXCEPTION 'update on table "%" would leave position techniques without it', TG_TABLE_NAME
          USING ERRCODE = 'foreign_key_violation', TABLE = TG_TABLE_NAME,
            DETAIL = format('Key (id)=(%s) is still referenced from table "aplt_product_techniques".', OLD.id);
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER aplt_print_positions_keep_technique_key_trg
      AFTER UPDATE OF id, product_id ON aplt_print_positions
      FOR EACH ROW WHEN ((OLD.id, OLD.product_id) IS DISTINCT FROM (NEW.id, NEW.product_id))
      EXECUTE FUNCTION aplt_catalog_keep_technique_parent_key();
    CREATE TRIGGER aplt_techniques_keep_technique_key_trg
      AFTER UPDATE OF id ON aplt_techniques
      FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id)
      EXECUTE FUNCTION aplt_catalog_keep_technique_parent_key();

    COMMENT ON TABLE aplt_product_techniques IS 'Techniques a product offers per print position. (print_position_id, product_id) and technique_id reference aplt_print_positions and aplt_techniques through statement triggers (migration 0516), not foreign keys: refused with SQLSTATE 23503 when missing, deleted with their position (so with their product) or technique.';
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`
    DROP TRIGGER aplt_techniques_keep_technique_key_trg ON aplt_techniques;
    DROP TRIGGER aplt_print_positions_keep_technique_key_trg ON aplt_print_positions;
    DROP TRIGGER aplt_techniques_truncate_product_techniques_trg ON aplt_techniques;
    DROP TRIGGER aplt_print_positions_truncate_techniques_trg ON aplt_print_positions;
    DROP TRIGGER aplt_techniques_delete_product_techniques_trg ON aplt_techniques;
    DROP TRIGGER aplt_print_positions_delete_techniques_trg ON aplt_print_positions;
    DROP TRIGGER aplt_product_techniques_check_changed_keys_trg ON aplt_product_techniques;
    DROP TRIGGER aplt_product_techniques_check_new_keys_trg ON aplt_product_techniques;
    DROP FUNCTION aplt_catalog_keep_technique_parent_key(), aplt_catalog_truncate_product_techniques(),
      aplt_techniques_delete_product_techniques(), aplt_print_positions_delete_techniques(),
      aplt_product_techniques_check_changed_keys(), aplt_product_techniques_check_new_keys();
    ALTER TABLE aplt_product_techniques
      ADD CONSTRAINT aplt_product_techniques_position_fk FOREIGN KEY (print_position_id, product_id)
        REFERENCES aplt_print_positions (id, product_id) ON DELETE CASCADE,
      ADD CONSTRAINT aplt_product_techniques_product_id_fkey FOREIGN KEY (product_id)
        REFERENCES aplt_products (id) ON DELETE CASCADE,
      ADD CONSTRAINT aplt_product_techniques_technique_id_fkey FOREIGN KEY (technique_id)
        REFERENCES aplt_techniques (id) ON DELETE CASCADE;
    COMMENT ON TABLE aplt_product_techniques IS NULL;
  `.execute(db);
}
