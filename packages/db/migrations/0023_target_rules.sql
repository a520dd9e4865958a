CREATE TABLE "target_rule_lists" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" bigint NOT NULL,
	"token_id" bigint,
	"mode" text NOT NULL,
	"rules" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "target_rule_lists_account_key" ON "target_rule_lists" USING btree ("user_id") WHERE "target_rule_lists"."token_id" IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "target_rule_lists_token_key" ON "target_rule_lists" USING btree ("token_id");