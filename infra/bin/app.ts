import { App } from 'aws-cdk-lib';
import { addPortalChecks } from '../lib/checks';
import { addPortalStack } from '../lib/portal-app';

/**
 * The CDK app: one environment-agnostic stack, so `npm run synth` needs no AWS account, and
 * cdk-nag's AwsSolutions pack, whose unacknowledged findings fail the synth. The stack's contexts
 * (mailFrom, mailIdentity, adminMailTo, the money settings) are read in infra/lib/portal-app.ts.
 */
const app = new App();
addPortalStack(app);
addPortalChecks(app);
