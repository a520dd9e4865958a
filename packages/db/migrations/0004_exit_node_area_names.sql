ALTER TABLE "exit_nodes" ADD COLUMN "state_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "exit_nodes" ADD COLUMN "city_name" text DEFAULT '' NOT NULL;