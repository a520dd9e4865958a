import type { TGrant } from './authorizer';
import type { Connection } from './connection';
import type { TTarget } from './egress';
import { dialFor, type TGatewayContext } from './gateway-context';
import { REFUSALS, type GatewayRefusal, type TRefusal } from './refusals';
import {
  METHOD_NONE_ACCEPTABLE,
  METHOD_USERPASS,
  SOCKS_REPLY,
  authReply,
  methodReply,
  parseGreeting,
  parseRequest,
  parseUserPass,
  requestReply,
  type TParse,
} from './socks5';
import { joinTunnel, startEchoTunnel } from './tunnel';

const USERPASS_CHOSEN = methodReply(METHOD_USERPASS);
const NO_METHOD = methodReply(METHOD_NONE_ACCEPTABLE);
const AUTH_OK = authReply(true);
const AUTH_FAILED = authReply(false);
const SUCCEEDED = requestReply(SOCKS_REPLY.succeeded);

/**
 * SOCKS5 (RFC 1928, CONNECT only) with username/password (RFC 1929): the
 * greeting, the credentials and the request are read from `first` and what
 * follows; then a tunnel. Nothing of the handshake is metered.
 */
export function handleSocks5(ctx: TGatewayContext, conn: Connection, first: Buffer): void {
  const socket = conn.socket;
  conn.isHeld = true;
  conn.protocol = 2;
  let buf = first;
  let stage: 'greeting' | 'auth' | 'request' = 'greeting';
  let grant: TGrant | TRefusal | null = null;
  // While the credentials are being checked, bytes wait in `buf`.
  let isAuthorizing = false;
  let handshakeBytes = 0;
  let written = 0;
  const send = (data: Buffer) => {
    written += data.length;
    socket.write(data);
  };
  const fail = (reply?: Buffer) => {
    socket.removeListener('data', onData);
    if (reply) socket.end(reply);
    else socket.destroy();
  };
  const step = (): void => {
    if (isAuthorizing) return;
    for (;;) {
      let parsed: TParse<unknown>;
      if (stage === 'greeting') parsed = parseGreeting(buf);
      else if (stage === 'auth') parsed = parseUserPass(buf);
      else parsed = parseRequest(buf);
      if (parsed.status === 'more') {
        if (buf.length > 1024) fail();
        return;
      }
      if (parsed.status === 'error')
        return fail(stage === 'request' ? requestReply(SOCKS_REPLY.generalFailure) : undefined);
      handshakeBytes += parsed.used;
      buf = buf.subarray(parsed.used);
      if (stage === 'greeting') {
        const { methods } = parsed.value as { methods: number[] };
        if (!methods.includes(METHOD_USERPASS)) return fail(NO_METHOD);
        send(USERPASS_CHOSEN);
        stage = 'auth';
      } else if (stage === 'auth') {
        const creds = parsed.value as { username: string; password: string };
        isAuthorizing = true;
        ctx.registry.admit(
          conn,
          { username: creds.username, password: creds.password, protocol: 'socks5', sourceIp: conn.sourceIp },
          (result) => {
            isAuthorizing = false;
            grant = result;
            // Wrong credentials fail the sub-negotiation; other refusals are reported on the request (RFC 1928 reply 0x02).
            if (grant === 'bad-credentials' || grant === 'auth-required') return fail(AUTH_FAILED);
            send(AUTH_OK);
            stage = 'request';
            step();
          },
        );
        return;
      } else {
        const { command, target } = parsed.value as { command: number; target: TTarget };
        conn.setTarget(target);
        socket.removeListener('data', onData);
        if (typeof grant === 'string' || grant === null)
          return fail(requestReply(REFUSALS[grant ?? 'auth-required'].socks));
        if (command !== 0x01) return fail(requestReply(SOCKS_REPLY.commandNotSupported));
        return void openSocksTunnel(ctx, conn, grant, target, buf, handshakeBytes, () => written);
      }
    }
  };
  const onData = (chunk: Buffer) => {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    step();
  };
  socket.on('data', onData);
  step();
}

function openSocksTunnel(
  ctx: TGatewayContext,
  conn: Connection,
  grant: TGrant,
  target: TTarget,
  early: Buffer,
  handshakeRead: number,
  handshakeWritten: () => number,
): void {
  const socket = conn.socket;
  socket.pause();
  conn.purse = grant.purse ?? null;
  const accept = () => {
    socket.write(SUCCEEDED);
    // Metering starts after the handshake: greeting, authentication, request and replies are not counted.
    conn.meterFrom(handshakeRead, handshakeWritten() + SUCCEEDED.length);
    conn.isHeld = false;
  };
  const echo = ctx.guard.echoAt(target.host, target.port);
  if (echo) return startEchoTunnel(ctx, conn, grant, target, echo, early, accept);
  dialFor(ctx, conn, grant, target).then(
    (upstream) => {
      if (socket.destroyed) return upstream.destroy();
      accept();
      joinTunnel(conn, upstream, early);
    },
    (err: GatewayRefusal) => {
      ctx.registry.release(conn, err.reason);
      socket.end(requestReply(err.socksCode ?? REFUSALS[err.reason].socks));
    },
  );
}
