/**
 * How every route's handler is bundled: the CDK stack passes these to `NodejsFunction` and
 * `npm run bench` hands the same values to esbuild, so the measured bundle is the deployed one.
 * Kept free of aws-cdk-lib imports so the bench stays light.
 */
export const functionBundling = {
  minify: true,
  sourceMap: true,
  /** The Lambda runtime is nodejs22.x. */
  target: 'node22',
  /** Provided by the Lambda Node.js runtime. */
  externalModules: ['@aws-sdk/*'],
  format: 'cjs',
} as const;

/** The runtime the bundles are built for, as CloudFormation spells it. */
export const functionRuntime = 'nodejs22.x';

/** NODE_OPTIONS of every function (stack traces through the source maps). */
export const functionNodeOptions = '--enable-source-maps';
