import { App } from 'aws-cdk-lib';
import { addPortalChecks } from '../lib/checks';
import { PortalStack } from '../lib/portal-stack';

/**
 * The CDK app: one environment-agnostic stack, so `npm run synth` needs no AWS account, and
 * cdk-nag's AwsSolutions pack, whose unacknowledged findings fail the synth.
 */
const app = new App();

new PortalStack(app, 'ResellerPortal', {
  description: 'Reseller portal: member and admin apps, /api functions, one DynamoDB table',
  analyticsReporting: false,
});

addPortalChecks(app);
