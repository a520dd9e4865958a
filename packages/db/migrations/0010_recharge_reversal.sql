ALTER TABLE "balances" DROP CONSTRAINT "balances_non_negative";--> statement-breakpoint
ALTER TABLE "balances" ADD COLUMN "debt_fen" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "pay_orders" ADD COLUMN "reversed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pay_orders" ADD COLUMN "reversal_note" text;--> statement-breakpoint
ALTER TABLE "pay_orders" ADD COLUMN "reversed_fen" bigint;--> statement-breakpoint
ALTER TABLE "pay_orders" ADD COLUMN "reversal_debt_fen" bigint;--> statement-breakpoint
ALTER TABLE "balances" ADD CONSTRAINT "balances_non_negative" CHECK ("balances"."available_fen" >= 0 AND "balances"."frozen_fen" >= 0 AND "balances"."debt_fen" >= 0);