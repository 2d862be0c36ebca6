/**
 * The deployed shape, read from the synthesised CDK app: every function's bundle as infra/ builds it
 * (NodejsFunction → esbuild: ESM, minified, source map, AWS SDK external), its size as deployed (the
 * zip's deflate), and its cold-start init time — a fresh `node` per run importing the bundle with the
 * function's environment (fake ARNs for the values CloudFormation fills in), timed up to the exported
 * handler. No AWS call is made: building a handler only creates SDK clients. Also the resources billed
 * by the month whatever the load (keys, secrets, alarms, dashboards, event sources, schedules).
 *
 * `node --import tsx bench/cost-bundles.ts synth <outdir>` synthesises the prod environment into
 * `outdir` and writes `summary.json` there; the bench runs it as a child process so esbuild's output
 * stays out of the report.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { median } from './harness.ts';

export interface FunctionShape {
  name: string;
  memoryMB: number;
  architecture: string;
  runtime: string;
  /** Directory holding index.mjs and index.mjs.map. */
  assetDir: string;
  environment: Record<string, string>;
}

export interface DeployedShape {
  functions: FunctionShape[];
  /** Resources by CloudFormation type, over both stacks. */
  resources: Record<string, number>;
  /**
   * Metrics the alarms evaluate, as CloudWatch bills them: one per single-metric alarm, one per metric
   * a metric-math alarm's expression reads.
   */
  alarmMetrics: number;
  /** API Gateway flavour of the Kubernetes API: `HTTP` (v2) or `REST`. */
  apiProtocol: string;
  /** Schedules and their expressions. */
  schedules: { name: string; expression: string }[];
}

export interface BundleMeasurement {
  name: string;
  memoryMB: number;
  bundleBytes: number;
  mapBytes: number;
  /** index.mjs and its map deflated, as in the deployment zip. */
  zippedBytes: number;
  /** Median ms from process start to the script that imports the bundle (Node's own start). */
  nodeStartMs: number;
  /** Median ms to import the bundle: module evaluation and the handler's construction. */
  initMs: number;
  /** The AWS SDK packages the bundle imports (the runtime provides them). */
  sdkModules: string[];
  /** Median ms to import those packages alone: the part of `initMs` the bundle does not carry. */
  sdkMs: number;
  runs: number;
}

/** Values CloudFormation resolves at deploy time, as a function would see them. */
const DEPLOY_TIME_VALUES: Record<string, string> = {
  SK_TABLE_NAME: 'sk-prod-objects',
  SK_QUEUE_URL_BASE: 'https://sqs.us-east-1.amazonaws.com/123456789012/',
  SK_CREDENTIALS_KMS_KEY: 'arn:aws:kms:us-east-1:123456789012:key/00000000-0000-4000-8000-000000000000',
  SK_ADMIN_SECRET_ID: 'arn:aws:secretsmanager:us-east-1:123456789012:secret:sk-prod/admin-kubeconfig-AbCdEf',
};

interface Template {
  Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }>;
}

/** Child-process side: synthesise prod with bundling and summarise what was built. */
async function synthesise(outdir: string): Promise<void> {
  const { App } = await import('aws-cdk-lib');
  const { buildApp } = await import('../infra/build.ts');
  const { ENVIRONMENTS } = await import('../infra/config/environments.ts');
  const app = new App({ outdir });
  const built = buildApp(app, ENVIRONMENTS.prod!, { nag: false });
  const assembly = app.synth();
  const templates = [built.stateful.stackName, built.stateless.stackName].map(
    (stack) => assembly.getStackByName(stack).template as Template,
  );
  const shape: DeployedShape = { functions: [], resources: {}, alarmMetrics: 0, apiProtocol: '', schedules: [] };
  for (const template of templates) {
    for (const resource of Object.values(template.Resources)) {
      shape.resources[resource.Type] = (shape.resources[resource.Type] ?? 0) + 1;
      const p = resource.Properties ?? {};
      if (resource.Type === 'AWS::Lambda::Function' && typeof p.FunctionName === 'string') {
        const code = p.Code as { S3Key?: unknown } | undefined;
        const key = typeof code?.S3Key === 'string' ? code.S3Key : '';
        const variables = ((p.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ??
          {}) as Record<string, unknown>;
        const environment: Record<string, string> = {};
        for (const [k, v] of Object.entries(variables)) {
          if (typeof v === 'string') environment[k] = v;
          else if (DEPLOY_TIME_VALUES[k]) environment[k] = DEPLOY_TIME_VALUES[k];
          else throw new Error(`${p.FunctionName}: no stand-in for the deploy-time value of ${k}`);
        }
        shape.functions.push({
          name: p.FunctionName,
          memoryMB: Number(p.MemorySize ?? 128),
          architecture: ((p.Architectures as string[] | undefined) ?? ['x86_64'])[0]!,
          runtime: String(p.Runtime),
          assetDir: join(outdir, `asset.${key.replace(/\.zip$/, '')}`),
          environment,
        });
      }
      if (resource.Type === 'AWS::CloudWatch::Alarm') {
        const queries = p.Metrics as { MetricStat?: unknown }[] | undefined;
        shape.alarmMetrics += queries ? queries.filter((q) => q.MetricStat !== undefined).length : 1;
      }
      if (resource.Type === 'AWS::ApiGatewayV2::Api') shape.apiProtocol = String(p.ProtocolType);
      if (resource.Type === 'AWS::ApiGateway::RestApi') shape.apiProtocol = 'REST';
      if (resource.Type === 'AWS::Scheduler::Schedule')
        shape.schedules.push({ name: String(p.Name), expression: String(p.ScheduleExpression) });
    }
  }
  shape.functions.sort((a, b) => a.name.localeCompare(b.name));
  writeFileSync(join(outdir, 'summary.json'), `${JSON.stringify(shape, null, 2)}\n`);
}

/** Synthesises prod (bundling every function) into `outdir`, in a child process. */
export function synthesiseDeployment(outdir: string): DeployedShape {
  execFileSync(process.execPath, ['--import', 'tsx', new URL(import.meta.url).pathname, 'synth', outdir], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(readFileSync(join(outdir, 'summary.json'), 'utf8')) as DeployedShape;
}

const SDK_PROBE = `const started = performance.now();
for (const name of process.argv.slice(2)) await import(name);
process.stdout.write(JSON.stringify({ ms: performance.now() - started }));
`;

const PROBE = `const started = performance.now();
const module = await import(process.argv[2]);
const imported = performance.now();
if (typeof module.handler !== 'function') throw new Error('the bundle exports no handler');
process.stdout.write(JSON.stringify({ nodeStartMs: started, initMs: imported - started }));
`;

/** Sizes and cold-start init of every function's bundle: `runs` fresh processes each, medians. */
export function measureBundles(shape: DeployedShape, outdir: string, runs: number): BundleMeasurement[] {
  const probe = join(outdir, 'cold-start-probe.mjs');
  writeFileSync(probe, PROBE);
  const sdkProbe = join(outdir, 'sdk-probe.mjs');
  writeFileSync(sdkProbe, SDK_PROBE);
  const sdkTimes = new Map<string, number>();
  const out: BundleMeasurement[] = [];
  for (const fn of shape.functions) {
    const bundle = join(fn.assetDir, 'index.mjs');
    const map = join(fn.assetDir, 'index.mjs.map');
    if (!existsSync(bundle)) throw new Error(`${fn.name}: no bundle at ${bundle}`);
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      AWS_REGION: 'us-east-1',
      AWS_DEFAULT_REGION: 'us-east-1',
      AWS_LAMBDA_FUNCTION_NAME: fn.name,
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memoryMB),
      AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
      AWS_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      AWS_SESSION_TOKEN: 'cost-bench',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      ...fn.environment,
    };
    const starts: number[] = [];
    const inits: number[] = [];
    for (let i = 0; i < runs; i++) {
      const child = spawnSync(process.execPath, [probe, resolve(bundle)], { env, encoding: 'utf8', timeout: 30_000 });
      if (child.status !== 0) throw new Error(`${fn.name}: the bundle did not load: ${child.stderr.slice(0, 500)}`);
      const result = JSON.parse(child.stdout) as { nodeStartMs: number; initMs: number };
      starts.push(result.nodeStartMs);
      inits.push(result.initMs);
    }
    const code = readFileSync(bundle);
    const sdkModules = [
      ...new Set([...code.toString('utf8').matchAll(/["'](@aws-sdk\/[a-z0-9-]+)["']/g)].map((m) => m[1]!)),
    ].sort();
    const sdkKey = sdkModules.join(' ');
    if (!sdkTimes.has(sdkKey)) {
      const times: number[] = [];
      for (let i = 0; i < runs && sdkModules.length > 0; i++) {
        const child = spawnSync(process.execPath, [sdkProbe, ...sdkModules], {
          env,
          encoding: 'utf8',
          timeout: 30_000,
        });
        if (child.status !== 0) throw new Error(`${sdkKey}: did not load: ${child.stderr.slice(0, 500)}`);
        times.push((JSON.parse(child.stdout) as { ms: number }).ms);
      }
      sdkTimes.set(sdkKey, times.length ? median(times) : 0);
    }
    const sourceMap = existsSync(map) ? readFileSync(map) : Buffer.alloc(0);
    out.push({
      name: fn.name,
      memoryMB: fn.memoryMB,
      bundleBytes: statSync(bundle).size,
      mapBytes: sourceMap.length,
      zippedBytes: deflateRawSync(code, { level: 9 }).length + deflateRawSync(sourceMap, { level: 9 }).length,
      nodeStartMs: median(starts),
      initMs: median(inits),
      sdkModules,
      sdkMs: sdkTimes.get(sdkKey)!,
      runs,
    });
  }
  return out;
}

if (process.argv[2] === 'synth') await synthesise(process.argv[3]!);
