// The web front end alone (`npm run start:web`), for deployments that run it apart from the API:
// API_URL says where the API is; WEB_URL is the site's public origin.
import { loadWebConfig, WebConfigError } from './server/config.js';
import { startWebServer } from './server/serve.js';

async function main() {
  let config: ReturnType<typeof loadWebConfig>;
  try {
    config = loadWebConfig();
  } catch (error) {
    if (error instanceof WebConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const logError = (error: unknown, context: { method: string; path: string }) =>
    process.stderr.write(
      `${JSON.stringify({ level: 'error', msg: 'web page failed', ...context, err: String((error as Error)?.stack ?? error) })}\n`,
    );
  const web = await startWebServer(config, logError);
  process.stdout.write(
    `${JSON.stringify({ level: 'info', msg: 'web front end listening', web: config.WEB_URL, api: config.API_URL })}\n`,
  );
  const stop = async () => {
    await web.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop());
  process.on('SIGINT', () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`fatal: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
