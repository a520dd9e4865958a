CREATE TABLE "auto_renewals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"token_id" bigint NOT NULL,
	"amount_fen" bigint NOT NULL,
	"previous_expires_at" timestamp with time zone NOT NULL,
	"new_expires_at" timestamp with time zone NOT NULL,
	"used_bytes_at_renewal" bigint NOT NULL,
	"renewed_at" timestamp with time zone NOT NULL,
	"undone_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "renewal_notices" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"token_id" bigint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"charge_at" timestamp with time zone NOT NULL,
	"amount_fen" bigint NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "auto_renewals" ADD CONSTRAINT "auto_renewals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "renewal_notices" ADD CONSTRAINT "renewal_notices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auto_renewals_token_idx" ON "auto_renewals" USING btree ("token_id","id");--> statement-breakpoint
CREATE INDEX "auto_renewals_user_idx" ON "auto_renewals" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "renewal_notices_key" ON "renewal_notices" USING btree ("token_id","expires_at");--> statement-breakpoint
CREATE INDEX "renewal_notices_user_idx" ON "renewal_notices" USING btree ("user_id","id");