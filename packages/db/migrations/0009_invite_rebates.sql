CREATE TABLE "rebate_rule_versions" (
	"version" integer PRIMARY KEY NOT NULL,
	"rate_bp" integer NOT NULL,
	"min_charge_fen" bigint NOT NULL,
	"max_rebate_fen" bigint NOT NULL,
	"created_by" bigint,
	"effective_at" timestamp with time zone NOT NULL,
	CONSTRAINT "rebate_rule_versions_values" CHECK ("rebate_rule_versions"."rate_bp" BETWEEN 0 AND 5000 AND "rebate_rule_versions"."min_charge_fen" >= 0 AND "rebate_rule_versions"."max_rebate_fen" > 0)
);
--> statement-breakpoint
CREATE TABLE "rebates" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"inviter_id" bigint NOT NULL,
	"invitee_id" bigint NOT NULL,
	"charge_fen" bigint NOT NULL,
	"rebate_fen" bigint NOT NULL,
	"rule_version" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"due_at" timestamp with time zone NOT NULL,
	"processed_at" timestamp with time zone,
	"reversed_fen" bigint DEFAULT 0 NOT NULL,
	"shortfall_fen" bigint DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rebates_amounts" CHECK ("rebates"."rebate_fen" > 0 AND "rebates"."charge_fen" > 0 AND "rebates"."reversed_fen" >= 0 AND "rebates"."shortfall_fen" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "rebates_order_key" ON "rebates" USING btree ("order_id");--> statement-breakpoint
CREATE INDEX "rebates_inviter_idx" ON "rebates" USING btree ("inviter_id","id");--> statement-breakpoint
CREATE INDEX "rebates_due_idx" ON "rebates" USING btree ("status","due_at");