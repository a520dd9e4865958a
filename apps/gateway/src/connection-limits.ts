import type { Worker } from 'node:cluster';

/**
 * Simultaneous connections per token. One gateway process counts in memory;
 * the workers of a clustered gateway (GATEWAY_WORKERS) ask their primary,
 * which keeps the one count per token for all of them.
 */
export type TConnectionLimiter = {
  /** Takes one of the token's `max` slots; false when all are taken. */
  acquire(tokenId: number, max: number): boolean | Promise<boolean>;
  /** Gives a slot back. */
  release(tokenId: number): void;
};

/** Counts per token with a map (one process, or the primary of a cluster). */
export function createLocalLimiter(): TConnectionLimiter & { count(tokenId: number): number } {
  const open = new Map<number, number>();
  return {
    acquire(tokenId, max) {
      const n = open.get(tokenId) ?? 0;
      if (n >= max) return false;
      open.set(tokenId, n + 1);
      return true;
    },
    release(tokenId) {
      const left = (open.get(tokenId) ?? 1) - 1;
      if (left <= 0) open.delete(tokenId);
      else open.set(tokenId, left);
    },
    count: (tokenId) => open.get(tokenId) ?? 0,
  };
}

type TLimitMessage =
  | { kind: 'limits.acquire'; seq: number; tokenId: number; max: number }
  | { kind: 'limits.release'; tokenId: number }
  | { kind: 'limits.answer'; seq: number; ok: boolean };

function isLimitMessage(message: unknown): message is TLimitMessage {
  return (
    typeof message === 'object' &&
    message !== null &&
    String((message as { kind?: unknown }).kind).startsWith('limits.')
  );
}

/** A worker's limiter: every acquire is one message to the primary and its answer. */
export function createWorkerLimiter(): TConnectionLimiter {
  if (!process.send) throw new Error('createWorkerLimiter needs an IPC channel to the primary');
  const send = process.send.bind(process);
  let seq = 0;
  const waiting = new Map<number, (ok: boolean) => void>();
  process.on('message', (message: unknown) => {
    if (!isLimitMessage(message) || message.kind !== 'limits.answer') return;
    waiting.get(message.seq)?.(message.ok);
    waiting.delete(message.seq);
  });
  return {
    acquire(tokenId, max) {
      return new Promise<boolean>((resolve) => {
        seq += 1;
        waiting.set(seq, resolve);
        send({ kind: 'limits.acquire', seq, tokenId, max } satisfies TLimitMessage);
      });
    },
    release(tokenId) {
      send({ kind: 'limits.release', tokenId } satisfies TLimitMessage);
    },
  };
}

/**
 * The primary's side: answers its workers from one count per token. A worker
 * that exits gives back every slot it held.
 */
export function serveWorkerLimits(): { add(worker: Worker): void; count(tokenId: number): number } {
  const limiter = createLocalLimiter();
  return {
    add(worker) {
      const held = new Map<number, number>();
      worker.on('message', (message: unknown) => {
        if (!isLimitMessage(message)) return;
        if (message.kind === 'limits.acquire') {
          const ok = limiter.acquire(message.tokenId, message.max) as boolean;
          if (ok) held.set(message.tokenId, (held.get(message.tokenId) ?? 0) + 1);
          if (worker.isConnected())
            worker.send({ kind: 'limits.answer', seq: message.seq, ok } satisfies TLimitMessage);
          else if (ok) release(message.tokenId);
        } else if (message.kind === 'limits.release') {
          release(message.tokenId);
        }
      });
      function release(tokenId: number): void {
        const n = held.get(tokenId) ?? 0;
        if (n <= 0) return;
        limiter.release(tokenId);
        if (n === 1) held.delete(tokenId);
        else held.set(tokenId, n - 1);
      }
      worker.once('exit', () => {
        for (const [tokenId, n] of held) for (let i = 0; i < n; i++) limiter.release(tokenId);
        held.clear();
      });
    },
    count: (tokenId) => limiter.count(tokenId),
  };
}
