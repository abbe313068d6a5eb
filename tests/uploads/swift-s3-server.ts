// A real S3-protocol server for the tests that need what s3rver lacks: OpenStack Swift (Debian
// packages swift-proxy, swift-account, swift-container, swift-object; .ci/run installs them) with
// its s3api middleware and tempauth. Unlike s3rver it verifies SigV4 signatures, presigned URLs
// included (signed headers such as Content-Type and Content-Length, and the expiry), and it has
// the whole multipart API @tus/s3-store uses (ListParts, AbortMultipartUpload).
//
// Each call starts a private cluster in a temporary directory: one-partition rings with one
// device, the proxy, account, container and object servers on free ports of 127.0.0.1 in one
// Python process, and a bucket. Starting takes ~2 s on an idle machine.
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const BIN = '/usr/bin';
export const SWIFT_INSTALL_HINT =
  'apt-get install --no-install-recommends swift-proxy swift-account swift-container swift-object (see .ci/run)';

/** True when the Swift servers are installed (Debian packages). */
export function swiftInstalled(): boolean {
  return ['swift-proxy-server', 'swift-account-server', 'swift-container-server', 'swift-object-server'].every((name) =>
    existsSync(join(BIN, name)),
  );
}

/** The service's S3 settings for a started Swift (its bucket, credentials, path-style). */
export function swiftS3Env(swift: SwiftS3): Record<string, string> {
  return {
    S3_ENDPOINT: swift.endpoint,
    S3_BUCKET: swift.bucket,
    S3_REGION: swift.region,
    S3_ACCESS_KEY_ID: swift.accessKeyId,
    S3_SECRET_ACCESS_KEY: swift.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
  };
}

export interface SwiftS3 {
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  client: S3Client;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs the four servers in one Python process (one interpreter start instead of four: seconds
 * each on a busy machine): binds their sockets on free ports, builds the one-device rings with
 * those ports, loads each server's WSGI pipeline from its config and serves them with eventlet
 * as swift's own run_server does (SwiftHttpProtocol, headers not capitalised: the AWS SDK needs
 * `ETag`). Prints the ports as JSON once listening.
 */
const LAUNCHER = `
import eventlet
eventlet.monkey_patch()
import json, os, sys, time
os.environ['TZ'] = 'UTC+0'
time.tzset()
from eventlet import wsgi
from swift.common import utils
from swift.common.ring import RingBuilder
from swift.common.wsgi import SwiftHttpProtocol, loadapp
directory = sys.argv[1]
utils.set_swift_dir(directory)
sockets = {kind: eventlet.listen(('127.0.0.1', 0)) for kind in ('proxy', 'account', 'container', 'object')}
ports = {kind: sock.getsockname()[1] for kind, sock in sockets.items()}
for kind in ('account', 'container', 'object'):
    builder = RingBuilder(0, 1, 1)
    builder.add_dev({'id': 0, 'region': 1, 'zone': 1, 'ip': '127.0.0.1', 'port': ports[kind], 'device': 'd1', 'weight': 1})
    builder.rebalance()
    builder.get_ring().save(os.path.join(directory, kind + '.ring.gz'))
class Quiet:
    def write(self, *args): pass
    def info(self, *args, **kwargs): pass
    def debug(self, *args, **kwargs): pass
    def error(self, *args, **kwargs): pass
servers = []
for kind, sock in sockets.items():
    app = loadapp(os.path.join(directory, kind + '.conf'), global_conf={'log_name': kind})
    servers.append(eventlet.spawn(wsgi.server, sock, app, Quiet(), protocol=SwiftHttpProtocol,
                                  capitalize_response_headers=False, socket_timeout=60))
print(json.dumps(ports), flush=True)
for server in servers:
    server.wait()
`;

export async function startSwiftS3(bucket: string): Promise<SwiftS3> {
  if (!swiftInstalled()) throw new Error(`OpenStack Swift is not installed: ${SWIFT_INSTALL_HINT}`);
  const dir = mkdtempSync(join(tmpdir(), 'swift-s3-'));
  const devices = join(dir, 'srv');
  mkdirSync(join(devices, 'd1'), { recursive: true });
  writeFileSync(
    join(dir, 'swift.conf'),
    '[swift-hash]\nswift_hash_path_suffix = test\nswift_hash_path_prefix = test\n' +
      '[storage-policy:0]\nname = Policy-0\ndefault = yes\n',
  );
  const common = `[DEFAULT]\nswift_dir = ${dir}\nlog_level = WARNING\n`;
  for (const kind of ['account', 'container', 'object'])
    writeFileSync(
      join(dir, `${kind}.conf`),
      `${common}devices = ${devices}\nmount_check = false\n` +
        `[pipeline:main]\npipeline = ${kind}-server\n[app:${kind}-server]\nuse = egg:swift#${kind}\n`,
    );
  writeFileSync(
    join(dir, 'proxy.conf'),
    `${common}` +
      '[pipeline:main]\n' +
      'pipeline = catch_errors gatekeeper proxy-logging cache s3api tempauth copy slo dlo proxy-logging proxy-server\n' +
      '[filter:catch_errors]\nuse = egg:swift#catch_errors\n' +
      '[filter:gatekeeper]\nuse = egg:swift#gatekeeper\n' +
      '[filter:proxy-logging]\nuse = egg:swift#proxy_logging\n' +
      // tempauth insists on a memcache client being configured; none has to answer (nothing is cached then).
      '[filter:cache]\nuse = egg:swift#memcache\nmemcache_servers = 127.0.0.1:9\n' +
      '[filter:s3api]\nuse = egg:swift#s3api\nlocation = us-east-1\n' +
      // S3 access key `test:tester`, secret `testing`.
      '[filter:tempauth]\nuse = egg:swift#tempauth\nuser_test_tester = testing .admin\n' +
      '[filter:copy]\nuse = egg:swift#copy\n' +
      '[filter:slo]\nuse = egg:swift#slo\n' +
      '[filter:dlo]\nuse = egg:swift#dlo\n' +
      '[app:proxy-server]\nuse = egg:swift#proxy\naccount_autocreate = true\nallow_account_management = true\n',
  );
  const output: string[] = [];
  const child: ChildProcess = spawn(join(BIN, 'python3'), ['-c', LAUNCHER, dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr?.on('data', (chunk: Buffer) => {
    if (output.length < 200) output.push(chunk.toString());
  });
  const close = async () => {
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 3000).unref();
    });
    rmSync(dir, { recursive: true, force: true });
  };
  let proxyPort: number;
  try {
    proxyPort = await new Promise<number>((resolve, reject) => {
      let line = '';
      child.stdout?.on('data', (chunk: Buffer) => {
        line += chunk.toString();
        if (line.includes('\n')) resolve((JSON.parse(line.split('\n')[0]!) as { proxy: number }).proxy);
      });
      child.once('exit', (code) => reject(new Error(`Swift exited (${code}):\n${output.join('')}`)));
      setTimeout(() => reject(new Error(`Swift did not start in 150 s:\n${output.join('')}`)), 150_000).unref();
    });
  } catch (error) {
    await close();
    throw error;
  }

  const endpoint = `http://127.0.0.1:${proxyPort}`;
  const credentials = { accessKeyId: 'test:tester', secretAccessKey: 'testing' };
  const client = new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    credentials,
    maxAttempts: 1,
  });
  // Ready when the bucket can be created (proxy up, and the account and container servers behind it).
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
      break;
    } catch (error) {
      if ((error as Error).name === 'InvalidBucketName') {
        await close();
        throw error;
      }
      if (Date.now() > deadline) {
        await close();
        throw new Error(`Swift did not start: ${(error as Error).message}\n${output.join('')}`);
      }
      await sleep(200);
    }
  }
  return { endpoint, region: 'us-east-1', bucket, ...credentials, client, close };
}
