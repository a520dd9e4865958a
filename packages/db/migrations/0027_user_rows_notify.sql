-- Written by hand (drizzle-kit does not express triggers; the schema itself is unchanged).
-- Every committed change of a row that a cached answer of the API is made from NOTIFYs USER_ROWS_CHANNEL
-- ('user_rows') with the id of the account whose answers it changes. API instances LISTEN and drop that
-- account's cached answers and sessions (apps/server/src/lib/answer-cache.ts). PostgreSQL sends one
-- notification per distinct payload per transaction, whatever the number of rows.
CREATE FUNCTION notify_user_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('user_rows', OLD.user_id::text);
  END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.user_id IS DISTINCT FROM OLD.user_id) THEN
    PERFORM pg_notify('user_rows', NEW.user_id::text);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Rebates are listed to their inviter.
CREATE FUNCTION notify_inviter_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('user_rows', OLD.inviter_id::text);
  END IF;
  IF TG_OP <> 'DELETE' AND (TG_OP = 'INSERT' OR NEW.inviter_id IS DISTINCT FROM OLD.inviter_id) THEN
    PERFORM pg_notify('user_rows', NEW.inviter_id::text);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
-- An account itself (status, token version, e-mail...); its e-mail is also shown, masked, in its inviter's rebates.
CREATE FUNCTION notify_user_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('user_rows', OLD.id::text);
  IF TG_OP = 'UPDATE' AND NEW.email IS DISTINCT FROM OLD.email AND NEW.invited_by IS NOT NULL THEN
    PERFORM pg_notify('user_rows', NEW.invited_by::text);
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER users_notify AFTER UPDATE OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION notify_user_account();--> statement-breakpoint
-- A session answers for its user until it ends: its start and its stamps of use change no answer.
CREATE TRIGGER user_sessions_notify AFTER UPDATE OF ended_at ON user_sessions FOR EACH ROW WHEN (OLD.ended_at IS DISTINCT FROM NEW.ended_at) EXECUTE FUNCTION notify_user_rows();--> statement-breakpoint
CREATE TRIGGER user_sessions_notify_delete AFTER DELETE ON user_sessions FOR EACH ROW EXECUTE FUNCTION notify_user_rows();--> statement-breakpoint
CREATE TRIGGER proxy_tokens_notify AFTER INSERT OR UPDATE OR DELETE ON proxy_tokens FOR EACH ROW EXECUTE FUNCTION notify_user_rows();--> statement-breakpoint
CREATE TRIGGER token_usage_notify AFTER INSERT OR UPDATE OR DELETE ON token_usage FOR EACH ROW EXECUTE FUNCTION notify_user_rows();--> statement-breakpoint
CREATE TRIGGER notifications_notify AFTER INSERT OR UPDATE OR DELETE ON notifications FOR EACH ROW EXECUTE FUNCTION notify_user_rows();--> statement-breakpoint
CREATE TRIGGER ledger_entries_notify AFTER INSERT OR UPDATE OR DELETE ON ledger_entries FOR EACH ROW EXECUTE FUNCTION notify_user_rows();--> statement-breakpoint
CREATE TRIGGER pay_orders_notify AFTER INSERT OR UPDATE OR DELETE ON pay_orders FOR EACH ROW EXECUTE FUNCTION notify_user_rows();--> statement-breakpoint
CREATE TRIGGER work_orders_notify AFTER INSERT OR UPDATE OR DELETE ON work_orders FOR EACH ROW EXECUTE FUNCTION notify_user_rows();--> statement-breakpoint
CREATE TRIGGER supply_requests_notify AFTER INSERT OR UPDATE OR DELETE ON supply_requests FOR EACH ROW EXECUTE FUNCTION notify_user_rows();--> statement-breakpoint
CREATE TRIGGER ip_list_entries_notify AFTER INSERT OR UPDATE OR DELETE ON ip_list_entries FOR EACH ROW EXECUTE FUNCTION notify_user_rows();--> statement-breakpoint
CREATE TRIGGER rebates_notify AFTER INSERT OR UPDATE OR DELETE ON rebates FOR EACH ROW EXECUTE FUNCTION notify_inviter_rows();
