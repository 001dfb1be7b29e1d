import { Validations, type Stage } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { PortalGuardChecks } from './guard';

/**
 * cdk-nag 3 runs as a CDK policy-validation plugin (not an Aspect): during synthesis every
 * unacknowledged AwsSolutions finding is reported and fails the synth. Acknowledgements are made
 * with `Validations.of(construct).acknowledge({ id, reason })` next to the construct they concern,
 * and are copied into the template metadata (`cdk_nag.rules_to_suppress`) for the audit trail.
 * Next to it, our cfn-guard rules (infra/guard/*.guard, run by infra/lib/guard.ts) check every
 * template of the assembly, the nested stacks' included, for what a reviewer must never miss; a
 * violation fails the synth with its rule, resource and template.
 * Used by infra/bin/app.ts and by the infra tests, so both check the same way.
 */
export function addPortalChecks(app: Stage): AwsSolutionsChecks {
  const checks = new AwsSolutionsChecks(app, { verbose: true, writeSuppressionsToCloudFormation: true });
  Validations.of(app).addPlugins(checks, new PortalGuardChecks());
  return checks;
}
