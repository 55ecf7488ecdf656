import { request } from 'node:http';

export interface SseMessage {
  event: string;
  data: string;
}

export interface SseStream {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The next event (comments and `retry:` lines skipped); rejects after `timeoutMs`. */
  next(timeoutMs?: number): Promise<SseMessage>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** A server-sent-events client over node:http (fetch would drop the Host header the tests need). */
export function openSse(port: number, path: string, headers: Record<string, string>): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      const queue: SseMessage[] = [];
      const waiters: Array<() => void> = [];
      let buffer = '';
      let endedResolve!: () => void;
      const ended = new Promise<void>((r) => (endedResolve = r));
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let i: number;
        while ((i = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, i);
          buffer = buffer.slice(i + 2);
          const msg: SseMessage = { event: 'message', data: '' };
          let has = false;
          for (const line of block.split('\n')) {
            if (line.startsWith('event: ')) msg.event = line.slice(7);
            else if (line.startsWith('data: ')) {
              msg.data += line.slice(6);
              has = true;
            }
          }
          if (has) queue.push(msg);
        }
        for (const w of waiters.splice(0)) w();
      });
      res.on('end', () => {
        endedResolve();
        for (const w of waiters.splice(0)) w();
      });
      res.on('close', () => endedResolve());
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        ended,
        async next(timeoutMs = 10_000) {
          const deadline = Date.now() + timeoutMs;
          for (;;) {
            const msg = queue.shift();
            if (msg) return msg;
            const left = deadline - Date.now();
            if (left <= 0) throw new Error(`no server-sent event within ${timeoutMs} ms`);
            await new Promise<void>((r) => {
              const t = setTimeout(r, left);
              waiters.push(() => {
                clearTimeout(t);
                r();
              });
            });
          }
        },
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}
