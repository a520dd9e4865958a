import { callApi, type TAppServer } from './app-server';

/** Makes a pending sandbox recharge order of `amount` yuan for the user, as the charge page does; resolves its id. */
export async function createSandboxOrder(server: TAppServer, token: string, amount: number): Promise<string> {
  const order = await callApi(server.url, `/pay/charge/sandbox/${amount}`, token, { method: 'POST' });
  if (order.code !== 0) throw new Error(`charge failed: ${order.msg}`);
  return order.data.order_id as string;
}

/** Pays a sandbox order as the "Pay" button of the sandbox's pay page does (its notification settles the order). */
export async function paySandboxOrder(server: TAppServer, orderId: string): Promise<void> {
  const paid = await fetch(`${server.url}/api/pay/sandbox/${encodeURIComponent(orderId)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'result=success',
    redirect: 'manual',
  });
  if (paid.status !== 303) throw new Error(`sandbox payment failed: ${paid.status}`);
}
