// A test app whose database connection runs through a TCP proxy the test can break, on a
// database of the file's own (PostgreSQL only), plus a connection around the proxy for checks.
import { openDatabase, type Database } from '../../db/client.js';
import { isolatedDatabase } from '../security/isolated-database.js';
import { createTestApp, type TestApp } from '../setup/harness.js';
import { startTcpProxy, type TcpProxy } from './tcp-proxy.js';

export interface ProxiedApp {
  t: TestApp;
  proxy: TcpProxy;
  /** The app's own database handle (through the proxy): its health state is the app's. */
  appDatabase: Database;
  /** A handle straight to the database, past the proxy. */
  direct: Database;
  close(): Promise<void>;
}

export async function proxiedApp(label: string, env: Record<string, string> = {}): Promise<ProxiedApp> {
  const isolated = (await isolatedDatabase(label))!;
  const target = new URL(isolated.url);
  const proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const proxied = new URL(isolated.url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String(proxy.port);
  const appDatabase = await openDatabase({
    url: proxied.toString(),
    poolMax: 4,
    statementTimeoutMs: Number(env.DATABASE_STATEMENT_TIMEOUT_MS ?? 2000),
    connectTimeoutSeconds: Number(env.DATABASE_CONNECT_TIMEOUT_SECONDS ?? 2),
  });
  const t = await createTestApp(
    { DATABASE_STATEMENT_TIMEOUT_MS: '2000', DATABASE_CONNECT_TIMEOUT_SECONDS: '2', ...env },
    { wrapDatabase: () => appDatabase },
  );
  return {
    t,
    proxy,
    appDatabase,
    direct: isolated.database,
    close: async () => {
      await proxy.set('up');
      await t.close();
      await appDatabase.close();
      await proxy.close();
      await isolated.drop();
    },
  };
}
