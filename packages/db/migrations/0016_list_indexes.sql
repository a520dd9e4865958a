CREATE INDEX "notifications_user_created_idx" ON "notifications" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "proxy_tokens_user_category_idx" ON "proxy_tokens" USING btree ("user_id","category","product","id");--> statement-breakpoint
CREATE INDEX "proxy_tokens_user_id_idx" ON "proxy_tokens" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "users_invited_by_id_idx" ON "users" USING btree ("invited_by","id");--> statement-breakpoint
CREATE INDEX "work_orders_supply_idx" ON "work_orders" USING btree ("supply_request_id","id");