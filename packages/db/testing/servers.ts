import { inject } from 'vitest';

export interface TestServers {
  pg: { host: string; port: number; user: string; password?: string | undefined };
  mysql: { host: string; port: number; user: string; password?: string | undefined };
  redisUrl: string;
  /** 'containers' when testcontainers started them, 'local' for the machine's own servers. */
  mode: 'containers' | 'local';
}

declare module 'vitest' {
  export interface ProvidedContext {
    servers: TestServers;
    runId: string;
  }
}

export function testServers(): TestServers {
  return inject('servers');
}

export function testRunId(): string {
  return inject('runId');
}
