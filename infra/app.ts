/**
 * The CDK app: `npx cdk synth -c env=dev` / `npx cdk deploy -c env=prod --all`.
 */
import { App } from 'aws-cdk-lib';
import { ConfigError } from '../lib/config/validate.ts';
import { buildApp } from './build.ts';
import { loadEnvironment } from './config/environments.ts';

const app = new App();
try {
  buildApp(
    app,
    loadEnvironment((key) => app.node.tryGetContext(key)),
  );
} catch (err) {
  if (err instanceof ConfigError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}
app.synth();
