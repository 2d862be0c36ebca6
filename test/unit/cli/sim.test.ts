import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UsageError } from '../../../lib/cli/args.ts';
import { parseSimArgs, type SimCommand } from '../../../lib/cli/sim.ts';

describe('skctl sim arguments', () => {
  const accepted: [string, string[], SimCommand][] = [
    [
      'kind/name in the default namespace',
      ['unhealthy', 'member1', 'deploy/web'],
      { verb: 'unhealthy', member: 'member1', workload: 'deploy/web', namespace: 'default' },
    ],
    [
      '-n before the workload',
      ['unhealthy', '-n', 'shop', 'member1', 'sts/db'],
      { verb: 'unhealthy', member: 'member1', workload: 'sts/db', namespace: 'shop' },
    ],
    [
      '--namespace=value after it',
      ['healthy', 'member2', 'flinkdeployments.flink.apache.org/job', '--namespace=streaming'],
      {
        verb: 'healthy',
        member: 'member2',
        workload: 'flinkdeployments.flink.apache.org/job',
        namespace: 'streaming',
      },
    ],
    [
      'a kind in any case',
      ['healthy', 'member2', 'Deployment/web'],
      { verb: 'healthy', member: 'member2', workload: 'Deployment/web', namespace: 'default' },
    ],
    ['list', ['list'], { verb: 'list' }],
    ['recover', ['recover', 'member2'], { verb: 'recover', member: 'member2' }],
    [
      'fail with a mode and a delay',
      ['fail', 'member2', '--mode', 'slow', '--delay', '2s'],
      { verb: 'fail', member: 'member2', fault: { mode: 'slow', delayMs: 2000 } },
    ],
    ['no verb: the help, exit 2', [], { verb: 'help', exitCode: 2 }],
    ['--help: the help, exit 0', ['unhealthy', '--help'], { verb: 'help', exitCode: 0 }],
  ];
  for (const [behaviour, args, command] of accepted)
    it(`accepts ${behaviour}`, () => assert.deepEqual(parseSimArgs(args).command, command));

  const refused: [string, string[], RegExp][] = [
    ['a workload without a slash', ['unhealthy', 'member1', 'web'], /name the workload as <kind>\/<name>/],
    ['a workload without a name', ['unhealthy', 'member1', 'deploy/'], /<kind>\/<name>/],
    ['a name with a slash in it', ['healthy', 'member1', 'deploy/a/b'], /<kind>\/<name>/],
    ['a name in upper case', ['unhealthy', 'member1', 'deploy/Web'], /"Web" is not an object name/],
    ['a kind with a space', ['unhealthy', 'member1', 'my kind/web'], /is not a kind/],
    ['no workload', ['unhealthy', 'member1'], /name the workload, e.g. skctl sim unhealthy member1 deployment\/web/],
    ['no member', ['healthy'], /name the member/],
    ['two workloads', ['unhealthy', 'member1', 'deploy/a', 'deploy/b'], /takes one workload/],
    ['an empty namespace', ['unhealthy', 'member1', 'deploy/a', '-n', ''], /-n needs a namespace/],
    ['-n with fail', ['fail', 'member1', '-n', 'shop'], /--namespace applies only to skctl sim unhealthy and healthy/],
    ['--mode with unhealthy', ['unhealthy', 'member1', 'deploy/a', '--mode', 'slow'], /--mode applies only/],
    ['an unknown verb', ['break', 'member1'], /unknown subcommand "break"/],
    ['an unknown flag', ['unhealthy', 'member1', 'deploy/a', '--ns', 'x'], /known flags/],
  ];
  for (const [behaviour, args, message] of refused)
    it(`refuses ${behaviour}`, () =>
      assert.throws(
        () => parseSimArgs(args),
        (e: Error) => e instanceof UsageError && message.test(e.message),
      ));
});
