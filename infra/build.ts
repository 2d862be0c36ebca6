/**
 * Builds the CDK app for one environment: the stateful and stateless stacks, tags, and cdk-nag's
 * AwsSolutions checks (a finding that is neither fixed nor acknowledged with a reason fails synth).
 */
import { type App, Tags, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { EnvironmentConfig } from './config/environments.ts';
import { StatefulStack } from './stacks/stateful-stack.ts';
import { StatelessStack } from './stacks/stateless-stack.ts';

export interface BuiltApp {
  stateful: StatefulStack;
  stateless: StatelessStack;
}

export function buildApp(app: App, config: EnvironmentConfig, options: { nag?: boolean } = {}): BuiltApp {
  const env = config.account || config.region ? { account: config.account, region: config.region } : undefined;
  const stateful = new StatefulStack(app, `${config.prefix}-stateful`, {
    config,
    ...(env ? { env } : {}),
    description: `Serverless Karmada ${config.name}: object table, data key, controller queues`,
    terminationProtection: config.retainData,
  });
  const stateless = new StatelessStack(app, `${config.prefix}-stateless`, {
    config,
    ...(env ? { env } : {}),
    description: `Serverless Karmada ${config.name}: API, controller functions, schedules, alarms`,
    table: stateful.table,
    dataKey: stateful.dataKey,
    adminSecret: stateful.adminSecret,
  });
  Tags.of(app).add('project', 'serverless-karmada');
  Tags.of(app).add('environment', config.name);
  if (options.nag ?? true) Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { stateful, stateless };
}
