import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Annotations,
  Aws,
  CfnOutput,
  CfnResource,
  DefaultStackSynthesizer,
  Duration,
  CfnParameter,
  Fn,
  NestedStack,
  RemovalPolicy,
  Stack,
  Validations,
  type StackProps,
} from 'aws-cdk-lib';
import { AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  HttpApi,
  HttpMethod,
  HttpRoute,
  HttpRouteKey,
  LogGroupLogDestination,
  PayloadFormatVersion,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  HttpVersion,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  PriceClass,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
  type BehaviorOptions,
} from 'aws-cdk-lib/aws-cloudfront';
import { HttpOrigin, S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import {
  AttributeType,
  BillingMode,
  CfnTable,
  ProjectionType,
  Table,
  StreamViewType,
  TableEncryption,
  type ITable,
} from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { Architecture, FilterCriteria, FilterRule, Runtime, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { Trigger } from 'aws-cdk-lib/triggers';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import {
  BlockPublicAccess,
  Bucket,
  BucketEncryption,
  CfnBucket,
  EventType,
  HttpMethods,
  ObjectOwnership,
  type BucketProps,
  type IBucket,
} from 'aws-cdk-lib/aws-s3';
import { LambdaDestination } from 'aws-cdk-lib/aws-s3-notifications';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { BucketDeployment, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Secret, type ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Queue, QueueEncryption, type IQueue } from 'aws-cdk-lib/aws-sqs';
import { DynamoEventSource, SqsDlq, SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import { Construct } from 'constructs';
import {
  eventFunctions as allEventFunctions,
  PICTURE_MAX_RECEIVES,
  CHECKOUT_CANCEL_MAX_RECEIVES,
  IMPORT_PART_MAX_RECEIVES,
  routes as allRoutes,
  secretEnv,
  type EventFunction,
  type Route,
  type SecretName,
} from '../../functions/src/routes';
import { readBuildInfo } from '@portal/shared/build/build-info';
import { EARNINGS_SHARD_PREFIX, table as tableDefinition } from '@portal/shared/db/table';
import {
  functionBundling,
  functionEnvironment,
  functionNodeOptions,
  lockedVersion,
  nativeModuleCommands,
} from './bundling';
import { capabilities, capabilityFor, type Capability } from './capabilities';
import { contentSecurityPolicy, securityHeaderSettings } from './security-headers';
import { spaRewriteSource } from './spa-rewrite';

/** The repository root (this file is infra/lib/portal-stack.ts). */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** Secrets the stack creates: every one routes may list (the Stripe pair is set by the operator). */
export type StackSecretName = SecretName;

export { contentSecurityPolicy } from './security-headers';

/** The Amazon Location Places v2 provider a function searches with (`geo-places:*` actions act on it). */
export const placesProviderArn = (stack: Stack): string =>
  `arn:${stack.partition}:geo-places:${stack.region}::provider/default`;

/**
 * The SES identity a function sends from (`ses:SendEmail` acts on it): the verified domain or
 * address named by `mailIdentity`, or else the domain of the `mailFrom` address.
 */
export const mailIdentityArn = (stack: Stack, identity: string): string =>
  `arn:${stack.partition}:ses:${stack.region}:${stack.account}:identity/${identity}`;

/** The domain of a sender such as `no-reply@example.com` or `Portal <no-reply@example.com>`. */
export function senderDomain(from: string): string {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
  const domain = address.slice(address.lastIndexOf('@') + 1).trim();
  if (!address.includes('@') || domain === '') throw new Error(`mailFrom is not an e-mail address: ${from}`);
  return domain;
}

/** The function resource's metadata key naming its handler module (relative to functions/src). */
export const ENTRY_METADATA = 'portal:entry';

/** Uploaded CSVs are deleted from the imports bucket this many days after they arrive. */
export const IMPORTS_EXPIRE_AFTER_DAYS = 30;

export interface PortalStackProps extends StackProps {
  /** The routes to deploy, one function each; the route table of functions/src/routes.ts by default. */
  readonly routes?: readonly Route[];
  /** The event-started functions; those of functions/src/routes.ts by default. */
  readonly eventFunctions?: readonly EventFunction[];
  /** Directory the route modules are relative to; functions/src by default. */
  readonly functionsDir?: string;
  /** Built apps to upload; web-member/dist and web-admin/dist by default, skipped (with a warning) when not built. */
  readonly siteDist?: { readonly member?: string; readonly admin?: string };
  /**
   * The sender of the functions that mail (routes with `mail: 'send'`): `from`, e.g.
   * `Reseller Portal <no-reply@example.com>`, and the verified SES identity it sends as (its
   * domain by default). Absent: those functions get no SES grant and say so when asked to send
   * (the synth warns). The CDK app reads them from the contexts `mailFrom` and `mailIdentity`.
   * `adminsTo` (context `adminMailTo`, addresses separated by commas) receives the administrators'
   * mails ("a payout failed", "a dispute was opened"); without it those are not sent.
   */
  readonly mail?: { readonly from: string; readonly identity?: string; readonly adminsTo?: string };
  /**
   * The money rules' settings (functions/src/config/money-settings.ts: COMMISSION_HOLD_DAYS,
   * PAYOUT_MINIMUM_CENTS, INSTANT_FEE_PAID_BY, SELF_PURCHASE), set on every function that reads
   * the table; absent ones take their defaults. The CDK app reads them from contexts
   * (`-c commissionHoldDays=30` …) and checks them before the synth.
   */
  readonly settings?: Readonly<Record<string, string>>;
}

/** What the stack makes for every function. */
export interface FunctionResources {
  readonly function: NodejsFunction;
  readonly role: Role;
  readonly logGroup: LogGroup;
}

/** What the stack made for one route. */
export interface RouteResources extends FunctionResources {
  readonly route: Route;
}

/** What the stack made for one event-started function. */
export interface EventFunctionResources extends FunctionResources {
  readonly event: EventFunction;
}

/** The table, bucket and secrets a function is granted and configured against, as its stack sees them. */
interface FunctionDeps {
  readonly table: ITable;
  readonly tableName: string;
  readonly importsBucket: IBucket;
  /** The hosted pictures' bucket (issue 28): the portal stack's functions only (the import). */
  readonly imagesBucket?: IBucket;
  readonly nagImagesBucketArn?: string;
  readonly secrets: Readonly<Record<StackSecretName, ISecret>>;
  /** How cdk-nag writes the table's and the bucket's ARNs in this stack (in acknowledgement ids). */
  readonly nagTableArn: string;
  readonly nagImportsBucketArn: string;
  /** The picture queue (issue 38): the import and the admin's retry send to it, the picture function consumes it. */
  readonly pictureQueue?: IQueue;
  /** The checkout-cancel queue (issue 38): a ban or withdrawal sends to it, its function consumes and continues it. */
  readonly checkoutCancelQueue?: IQueue;
  /** The import's continuation queue: a long file's next part (run-import.ts); the import functions only. */
  readonly importQueue?: IQueue;
}

/** What the portal stack hands a capability's nested stack: its parameters. */
export interface SharedResources {
  readonly apiId: string;
  readonly tableName: string;
  readonly tableArn: string;
  readonly importsBucketName: string;
  readonly importsBucketArn: string;
  readonly pictureQueueArn: string;
  readonly pictureQueueUrl: string;
  readonly checkoutCancelQueueArn: string;
  readonly checkoutCancelQueueUrl: string;
  /** The CloudFront domain: the origin of the links the mailing functions send (SITE_URL). */
  readonly siteDomainName: string;
  readonly secretArns: Readonly<Record<StackSecretName, string>>;
}

/** The nested stack parameter carrying a secret's ARN, e.g. `TokenSigningKeyArn`. */
const secretParameter = (name: StackSecretName): string => `${name[0]!.toUpperCase()}${name.slice(1)}Arn`;

export interface CapabilityStackProps {
  readonly description: string;
  readonly routes: readonly Route[];
  readonly functionsDir: string;
  readonly mail?: PortalStackProps['mail'];
  readonly settings?: PortalStackProps['settings'];
  readonly shared: SharedResources;
}

/**
 * The calls of one capability (capabilities.ts): a function, role and log group per call and its
 * POST route on the portal's HTTP API, in a nested stack. The API, the table, the imports bucket
 * and the secrets stay in the portal stack and come in as parameters (named here, so cdk-nag's
 * acknowledgements can name them too).
 */
export class CapabilityStack extends NestedStack {
  /** One entry per route, keyed by route name. */
  readonly routeResources: ReadonlyMap<string, RouteResources>;

  constructor(scope: Construct, id: string, props: CapabilityStackProps) {
    const { shared } = props;
    const secretNames = Object.keys(shared.secretArns) as StackSecretName[];
    super(scope, id, {
      description: props.description,
      parameters: {
        ApiId: shared.apiId,
        TableName: shared.tableName,
        TableArn: shared.tableArn,
        ImportsBucketName: shared.importsBucketName,
        ImportsBucketArn: shared.importsBucketArn,
        PictureQueueArn: shared.pictureQueueArn,
        PictureQueueUrl: shared.pictureQueueUrl,
        CheckoutCancelQueueArn: shared.checkoutCancelQueueArn,
        CheckoutCancelQueueUrl: shared.checkoutCancelQueueUrl,
        SiteDomainName: shared.siteDomainName,
        ...Object.fromEntries(secretNames.map((name) => [secretParameter(name), shared.secretArns[name]])),
      },
    });
    const parameter = (name: string): string =>
      new CfnParameter(this, name, { type: 'String', description: `${name} of the portal stack` }).valueAsString;
    const apiId = parameter('ApiId');
    const tableName = parameter('TableName');
    const tableArn = parameter('TableArn');
    const importsBucketName = parameter('ImportsBucketName');
    const importsBucketArn = parameter('ImportsBucketArn');
    const siteDomainName = parameter('SiteDomainName');
    const pictureQueueArn = parameter('PictureQueueArn');
    const pictureQueueUrl = parameter('PictureQueueUrl');
    const checkoutCancelQueueArn = parameter('CheckoutCancelQueueArn');
    const checkoutCancelQueueUrl = parameter('CheckoutCancelQueueUrl');
    const secretArns = Object.fromEntries(secretNames.map((name) => [name, parameter(secretParameter(name))]));
    const deps: FunctionDeps = {
      table: Table.fromTableAttributes(this, 'Table', { tableArn, grantIndexPermissions: true }),
      tableName,
      importsBucket: Bucket.fromBucketAttributes(this, 'ImportsBucket', {
        bucketArn: importsBucketArn,
        bucketName: importsBucketName,
      }),
      secrets: Object.fromEntries(
        secretNames.map((name) => [name, Secret.fromSecretCompleteArn(this, `${name}Secret`, secretArns[name]!)]),
      ) as Record<StackSecretName, ISecret>,
      nagTableArn: '<TableArn>',
      nagImportsBucketArn: '<ImportsBucketArn>',
      pictureQueue: Queue.fromQueueAttributes(this, 'PictureQueue', {
        queueArn: pictureQueueArn,
        queueUrl: pictureQueueUrl,
      }),
      checkoutCancelQueue: Queue.fromQueueAttributes(this, 'CheckoutCancelQueue', {
        queueArn: checkoutCancelQueueArn,
        queueUrl: checkoutCancelQueueUrl,
      }),
    };
    const api = HttpApi.fromHttpApiAttributes(this, 'Api', { httpApiId: apiId });

    const routeResources = new Map<string, RouteResources>();
    for (const route of props.routes) {
      const made = appFunction(new Construct(this, route.name), route, deps, {
        functionsDir: props.functionsDir,
        mail: props.mail,
        settings: props.settings,
        description: `POST ${route.path} (${route.module})`,
      });
      // The functions that mail put links to the site in them: SITE_URL is the distribution's origin.
      if (route.access.mail) made.function.addEnvironment('SITE_URL', `https://${siteDomainName}`);
      const httpRoute = new HttpRoute(this, `${route.name}Route`, {
        httpApi: api,
        routeKey: HttpRouteKey.with(route.path, HttpMethod.POST),
        integration: new HttpLambdaIntegration(`${route.name}Integration`, made.function, {
          payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
        }),
      });
      Validations.of(httpRoute).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason:
          'Authorization is done in the handler: it verifies the signed JWT issued by /api/login and checks the role the API contract (shared/src/api/contract.ts) sets for this call; signup, login and the Stripe webhook are public by design.',
      });
      routeResources.set(route.name, { route, ...made });
    }
    this.routeResources = routeResources;
  }
}

/** An alarm that goes off while a message waits in `queue` (a dead-letter or failure queue nothing consumes). */
function waitingMessageAlarm(scope: Construct, id: string, queue: Queue, description: string): Alarm {
  return new Alarm(scope, id, {
    alarmDescription: description,
    metric: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
}

/** The fields of a route or event function that shape its Lambda function. */
type FunctionSpec = Pick<Route & EventFunction, 'module' | 'memoryMb' | 'timeoutSeconds' | 'access'> &
  Partial<Pick<EventFunction, 'nativeModules'>>;

/**
 * The whole portal: table, buckets, secrets, the HTTP API, the import function and one
 * CloudFront distribution serving the member app at /, the admin app at /admin/ and the API at
 * /api/*; the calls' functions and routes in one nested stack per capability (CapabilityStack).
 */
export class PortalStack extends Stack {
  readonly table: Table;
  readonly importsBucket: Bucket;
  /** The hosted pictures (issue 28): `images/*` served by CloudFront at `/images/*`, written by the import. */
  readonly imagesBucket: Bucket;
  readonly logsBucket: Bucket;
  readonly memberBucket: Bucket;
  readonly adminBucket: Bucket;
  readonly secrets: Readonly<Record<StackSecretName, Secret>>;
  /** Invocations of the event functions (the import) that failed all their tries. */
  readonly failedEvents: Queue;
  /** Goes off when a failed invocation waits in `failedEvents`. */
  readonly failedEventsAlarm: Alarm;
  /** The pictures of imported products, one message per product version (issue 38). */
  readonly pictureQueue: Queue;
  /** Picture messages that failed every receive (poison messages). */
  readonly pictureDeadLetters: Queue;
  /** The next part of a long import, one message per part (run-import.ts continueImport). */
  readonly importQueue: Queue;
  /** Goes off when a message waits in `pictureDeadLetters`. */
  readonly pictureDeadLettersAlarm: Alarm;
  /** A banned or withdrawn product's cancelling, one message per step (issue 38). */
  readonly checkoutCancelQueue: Queue;
  /** Checkout-cancel steps that failed every receive. */
  readonly checkoutCancelDeadLetters: Queue;
  /** Goes off when a message waits in `checkoutCancelDeadLetters`. */
  readonly checkoutCancelDeadLettersAlarm: Alarm;
  readonly api: HttpApi;
  readonly distribution: Distribution;
  /** One entry per route, keyed by route name. */
  readonly routeResources: ReadonlyMap<string, RouteResources>;
  /** The nested stack of each capability that has calls (capabilities.ts). */
  readonly capabilityStacks: ReadonlyMap<Capability, CapabilityStack>;
  /** One entry per event-started function, keyed by name. */
  readonly eventResources: ReadonlyMap<string, EventFunctionResources>;

  constructor(scope: Construct, id: string, props: PortalStackProps = {}) {
    super(scope, id, props);
    const routes = props.routes ?? allRoutes;
    const eventFunctions = props.eventFunctions ?? allEventFunctions;
    const functionsDir = props.functionsDir ?? path.join(repoRoot, 'functions', 'src');

    // ---- Data --------------------------------------------------------------------------------
    this.table = new Table(this, 'Table', {
      partitionKey: { name: tableDefinition.partitionKey, type: AttributeType.STRING },
      sortKey: { name: tableDefinition.sortKey, type: AttributeType.STRING },
      timeToLiveAttribute: tableDefinition.ttlAttribute,
      stream: StreamViewType[tableDefinition.streamViewType],
      billingMode: BillingMode.PAY_PER_REQUEST,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      encryption: TableEncryption.AWS_MANAGED,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of tableDefinition.indexes) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
        projectionType: ProjectionType.ALL,
      });
    }

    // ---- Buckets -----------------------------------------------------------------------------
    const privateBucket: BucketProps = {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: BucketEncryption.S3_MANAGED,
      removalPolicy: RemovalPolicy.RETAIN,
    };
    this.logsBucket = new Bucket(this, 'LogsBucket', {
      ...privateBucket,
      // CloudFront standard logging writes with an ACL grant, so ACLs stay enabled here only.
      objectOwnership: ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: Duration.days(365) }],
    });
    const loggedBucket = (id: string, extra: BucketProps = {}): Bucket =>
      new Bucket(this, id, {
        ...privateBucket,
        objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
        serverAccessLogsBucket: this.logsBucket,
        serverAccessLogsPrefix: `s3/${id}/`,
        ...extra,
      });
    // Supplier CSVs land here (through /api/products or a presigned POST); ObjectCreated starts the import.
    this.importsBucket = loggedBucket('ImportsBucket', {
      // A supplier CSV is needed only while its import runs (and a retry); nothing keeps it forever.
      lifecycleRules: [
        { id: 'ExpireUploadedCsvs', expiration: Duration.days(IMPORTS_EXPIRE_AFTER_DAYS) },
        { id: 'AbortIncompleteUploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
    });
    // Pictures the import hosts (issue 28): content-addressed originals and WebP variants under
    // images/ (CloudFront /images/*, through its origin access control only), and under sources/
    // which supplier address gave which picture (never served). Kept: products name them.
    this.imagesBucket = loggedBucket('ImagesBucket', {
      lifecycleRules: [{ id: 'AbortIncompleteUploads', abortIncompleteMultipartUploadAfter: Duration.days(1) }],
    });
    this.memberBucket = loggedBucket('MemberSiteBucket');
    this.adminBucket = loggedBucket('AdminSiteBucket');

    // ---- Secrets -----------------------------------------------------------------------------
    // The Stripe values are set by the operator after the first deploy (ARNs are stack outputs):
    //   aws secretsmanager put-secret-value --secret-id <StripeSecretKeyArn> --secret-string 'sk_live_...'
    //   aws secretsmanager put-secret-value --secret-id <StripeWebhookSecretArn> --secret-string 'whsec_...'
    //   aws secretsmanager put-secret-value --secret-id <StripePublishableKeyArn> --secret-string 'pk_live_...'
    // Until then they hold a random placeholder, which Stripe rejects.
    const operatorSecret = (id: string, what: string): Secret => {
      const secret = new Secret(this, id, {
        description: `${what}. Set by the operator: aws secretsmanager put-secret-value --secret-id <this ARN> --secret-string <value>`,
      });
      Validations.of(secret).acknowledge({
        id: 'AwsSolutions-SMG4',
        reason: `${what} is issued by Stripe and rolled in the Stripe dashboard, then stored here with put-secret-value; Secrets Manager cannot rotate it.`,
      });
      return secret;
    };
    const tokenSigningKey = new Secret(this, 'TokenSigningKey', {
      description: 'HMAC key that signs the portal access tokens (generated).',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    Validations.of(tokenSigningKey).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason:
        'The token signing key is not rotated automatically: tokens are verified against this single key, so a rotation would log every user out; rotate by hand (put-secret-value with a new 64-char value) when needed.',
    });
    this.secrets = {
      tokenSigningKey,
      stripeSecretKey: operatorSecret('StripeSecretKey', 'The Stripe secret API key'),
      stripeWebhookSecret: operatorSecret('StripeWebhookSecret', 'The signing secret of the Stripe platform endpoint'),
      stripeConnectWebhookSecret: operatorSecret(
        'StripeConnectWebhookSecret',
        'The signing secret of the Stripe Connect endpoint',
      ),
      stripePublishableKey: operatorSecret('StripePublishableKey', 'The Stripe publishable API key'),
    };

    // ---- Functions and API -------------------------------------------------------------------
    const apiAccessLogs = new LogGroup(this, 'ApiAccessLogs', { retention: RetentionDays.THREE_MONTHS });
    this.api = new HttpApi(this, 'Api', {
      description: 'Reseller portal /api/* calls, one POST route per function; reached through CloudFront.',
      createDefaultStage: false,
    });
    const stage = this.api.addStage('DefaultStage', {
      stageName: '$default',
      autoDeploy: true,
      throttle: { rateLimit: 50, burstLimit: 100 },
      accessLogSettings: {
        destination: new LogGroupLogDestination(apiAccessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            routeKey: '$context.routeKey',
            status: '$context.status',
            protocol: '$context.protocol',
            responseLength: '$context.responseLength',
            responseLatency: '$context.responseLatency',
            integrationLatency: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
          }),
        ),
      },
    });
    if (!props.mail && routes.some((route) => route.access.mail)) {
      Annotations.of(this).addWarningV2(
        'portal:mail-not-configured',
        'No sender for e-mail: deploy with -c mailFrom=<address on a verified SES identity> (docs/deploy.md, "E-mail (SES)"); until then sign-up sends no verification link and /api/verifyEmail cannot send one.',
      );
    }

    // Functions started by events: the import of a CSV that lands in the imports bucket. Lambda
    // invokes them asynchronously and tries three times; an event that failed every try goes to the
    // failure queue (with its error), and an alarm goes off. A run that timed out also left its job
    // `running`: getImportJob reports it failed once its heartbeat is stale (imports/jobs.ts).
    this.failedEvents = new Queue(this, 'FailedEvents', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    // It is the import queue's dead-letter queue too, so cdk-nag's SQS3 (a queue without one) does not apply to it.
    this.failedEventsAlarm = new Alarm(this, 'FailedEventsAlarm', {
      alarmDescription:
        'An import (or another event function) failed all three tries: its event is in the FailedEvents queue with the error. Read it (aws sqs receive-message --queue-url <FailedEventsQueueUrl>), fix the cause, and upload the file again; delete the message when handled. A message with DDBStreamBatchInfo is a batch of top-earners places the places function gave up on: no money is concerned; fix the cause (its log) and see docs/deploy.md, "When an import fails".',
      metric: this.failedEvents.metricApproximateNumberOfMessagesVisible({
        period: Duration.minutes(5),
        statistic: 'Maximum',
      }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    // The picture queue (issue 38): the import sends one message per product version as each batch
    // is stored; the picture function takes them in batches through its event source mapping. A
    // message still failing after PICTURE_MAX_RECEIVES receives (a poison message: not one that only
    // waits for a slow host, which is counted failed at its third try) goes to the dead-letter queue.
    this.pictureDeadLetters = new Queue(this, 'PictureDeadLetters', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    const pictureFunction = eventFunctions.find((event) => event.trigger === 'pictureQueue');
    this.pictureQueue = new Queue(this, 'PictureQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      // Lambda's advice for an event source: six times the function's timeout.
      visibilityTimeout: Duration.seconds(6 * (pictureFunction?.timeoutSeconds ?? 300)),
      deadLetterQueue: { queue: this.pictureDeadLetters, maxReceiveCount: PICTURE_MAX_RECEIVES },
    });
    this.pictureDeadLettersAlarm = waitingMessageAlarm(
      this,
      'PictureDeadLettersAlarm',
      this.pictureDeadLetters,
      "A picture message failed every try and waits in the PictureDeadLetters queue: its product's pictures are neither hosted nor counted failed. Read it (aws sqs receive-message --queue-url <PictureDeadLettersQueueUrl>) and the picture function's log, fix the cause, then move it back (aws sqs start-message-move-task).",
    );

    // The checkout-cancel queue (issue 38): a ban or withdrawal sends the first step of cancelling
    // the product's open checkouts; each step (a page) sends the next. A step that throws at every
    // receive (the table or the queue failing) goes to its dead-letter queue, and an alarm goes off.
    this.checkoutCancelDeadLetters = new Queue(this, 'CheckoutCancelDeadLetters', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    const cancelFunction = eventFunctions.find((event) => event.trigger === 'checkoutCancelQueue');
    this.checkoutCancelQueue = new Queue(this, 'CheckoutCancelQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      visibilityTimeout: Duration.seconds(6 * (cancelFunction?.timeoutSeconds ?? 120)),
      deadLetterQueue: { queue: this.checkoutCancelDeadLetters, maxReceiveCount: CHECKOUT_CANCEL_MAX_RECEIVES },
    });
    this.checkoutCancelDeadLettersAlarm = waitingMessageAlarm(
      this,
      'CheckoutCancelDeadLettersAlarm',
      this.checkoutCancelDeadLetters,
      "A step of cancelling a banned or withdrawn product's open checkouts failed every try and waits in the CheckoutCancelDeadLetters queue: that product's cancelling stopped (its admin screen still says Cancelling…). Read it (aws sqs receive-message --queue-url <CheckoutCancelDeadLettersQueueUrl>) and the cancelCheckouts function's log, fix the cause, then move it back (aws sqs start-message-move-task).",
    );
    // The import's continuation queue: a file too long for one invocation checkpoints and sends its
    // next part here. The visibility timeout outlasts a part's heartbeat going stale (16 minutes),
    // so a part that died is taken over by its message's redelivery; a part failing every receive
    // goes to the failed-events queue, as a failed import event does.
    this.importQueue = new Queue(this, 'ImportQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(4),
      visibilityTimeout: Duration.minutes(18),
      deadLetterQueue: { queue: this.failedEvents, maxReceiveCount: IMPORT_PART_MAX_RECEIVES },
    });

    const eventResources = new Map<string, EventFunctionResources>();
    const eventsScope = new Construct(this, 'Events');
    for (const event of eventFunctions) {
      const made = appFunction(new Construct(eventsScope, event.name), event, this.functionDeps(), {
        functionsDir,
        mail: props.mail,
        description: `${event.name}: ${event.trigger} (${event.module})`,
        // Lambda's asynchronous retries and on-failure destination; a queue's messages have their own.
        ...(event.trigger === 'pictureQueue' ||
        event.trigger === 'checkoutCancelQueue' ||
        event.trigger === 'importQueue' ||
        event.trigger === 'tableStream:earnings'
          ? {}
          : { onFailure: this.failedEvents }),
        settings: props.settings,
        reservedConcurrency: event.reservedConcurrency,
      });
      switch (event.trigger) {
        case 'importsBucket:ObjectCreated':
          this.importsBucket.addEventNotification(EventType.OBJECT_CREATED, new LambdaDestination(made.function));
          break;
        case 'pictureQueue':
        case 'checkoutCancelQueue':
          // Partial batch failures: only the messages the handler names come back.
          made.function.addEventSource(
            new SqsEventSource(event.trigger === 'pictureQueue' ? this.pictureQueue : this.checkoutCancelQueue, {
              batchSize: event.batchSize ?? 10,
              reportBatchItemFailures: true,
              ...(event.reservedConcurrency ? { maxConcurrency: Math.max(2, event.reservedConcurrency) } : {}),
            }),
          );
          break;
        case 'importQueue':
          // One part at a time: a part runs for up to the function's timeout.
          made.function.addEventSource(
            new SqsEventSource(this.importQueue, { batchSize: 1, reportBatchItemFailures: true, maxConcurrency: 2 }),
          );
          break;
        case 'tableStream:earnings':
          // The writes of members' earnings shards only (not the place item `EARNINGS` the function
          // itself writes), a batch per shard at a time, in order. A batch whose place could not be
          // written comes again from that member's first change, halved after a failure; after its
          // tries (or an hour) its description goes to the failed-events queue and the stream goes
          // on: the member's next sale or refund writes their place again (decision 0481).
          // DynamoEventSource grants the role the stream's reads and dynamodb:ListStreams, which
          // has no resource-level permissions (its resource is `*`).
          Validations.of(made.role).acknowledge({
            id: 'AwsSolutions-IAM5[Resource::*]',
            reason:
              "dynamodb:ListStreams only, which Lambda's event source mapping on the table's stream needs and which IAM authorizes on no narrower resource; the stream's reads (DescribeStream, GetRecords, GetShardIterator) name the table's stream.",
          });
          made.function.addEventSource(
            new DynamoEventSource(this.table, {
              startingPosition: StartingPosition.TRIM_HORIZON,
              batchSize: event.batchSize ?? 100,
              reportBatchItemFailures: true,
              bisectBatchOnError: true,
              retryAttempts: 5,
              maxRecordAge: Duration.hours(1),
              onFailure: new SqsDlq(this.failedEvents),
              filters: [
                FilterCriteria.filter({
                  dynamodb: { Keys: { sk: { S: FilterRule.beginsWith(EARNINGS_SHARD_PREFIX) } } },
                }),
              ],
            }),
          );
          break;
        case 'afterDeploy':
          // Invoked by CloudFormation once the table exists, on the first deploy and on every deploy
          // that changes the function; a failure fails the deploy.
          new Trigger(made.function, 'AfterDeploy', {
            handler: made.function,
            executeAfter: [this.table],
            executeOnHandlerChange: true,
            timeout: Duration.seconds(event.timeoutSeconds),
          });
          break;
        case 'schedule:daily':
          // Every day at 00:00 UTC; a failed run is retried by Lambda (asynchronous invocation), then queued.
          new Rule(eventsScope, `${event.name}Schedule`, {
            description: `${event.name}: every day at 00:00 UTC (${event.module})`,
            schedule: Schedule.cron({ minute: '0', hour: '0' }),
            targets: [new LambdaFunction(made.function, { retryAttempts: 2 })],
          });
          break;
      }
      eventResources.set(event.name, { event, ...made });
    }
    this.eventResources = eventResources;
    for (const child of this.node.children) {
      if (child.node.id.startsWith('BucketNotificationsHandler')) {
        Validations.of(child).acknowledge({
          id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
          reason:
            "aws-cdk-lib's BucketNotificationsHandler (the deploy-time custom resource that sets the imports bucket's ObjectCreated notification) logs with AWSLambdaBasicExecutionRole; it runs only during deployments.",
        });
      }
    }

    // ---- CDN ---------------------------------------------------------------------------------
    // The header values come from security-headers.ts, which the local server sends too.
    const headerSettings = securityHeaderSettings;
    const securityHeaders = new ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'Reseller portal security headers',
      securityHeadersBehavior: {
        contentSecurityPolicy: {
          // Any bucket's virtual-hosted S3 endpoint in this region: naming the imports bucket here
          // would make a cycle (its CORS rule names the distribution, which uses this policy).
          contentSecurityPolicy: contentSecurityPolicy([
            `https://*.s3.${Aws.REGION}.${Aws.URL_SUFFIX}`,
            `https://*.s3.${Aws.URL_SUFFIX}`,
          ]),
          override: true,
        },
        strictTransportSecurity: {
          accessControlMaxAge: Duration.seconds(headerSettings.strictTransportSecurity.maxAgeSeconds),
          includeSubdomains: headerSettings.strictTransportSecurity.includeSubdomains,
          override: true,
        },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: headerSettings.frameOption as HeadersFrameOption, override: true },
        referrerPolicy: { referrerPolicy: headerSettings.referrerPolicy as HeadersReferrerPolicy, override: true },
        xssProtection: { ...headerSettings.xssProtection, override: true },
      },
    });
    const spaRewrite = new CloudFrontFunction(this, 'SpaRewrite', {
      comment: 'SPA fallback: extension-less paths to /index.html or /admin/index.html',
      runtime: FunctionRuntime.JS_2_0,
      code: FunctionCode.fromInline(spaRewriteSource),
    });
    const siteBehavior = (bucket: Bucket): BehaviorOptions => ({
      origin: S3BucketOrigin.withOriginAccessControl(bucket),
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD_OPTIONS,
      cachePolicy: CachePolicy.CACHING_OPTIMIZED,
      compress: true,
      responseHeadersPolicy: securityHeaders,
      functionAssociations: [{ function: spaRewrite, eventType: FunctionEventType.VIEWER_REQUEST }],
    });
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Reseller portal: member app at /, admin app at /admin/, API at /api/*',
      defaultRootObject: 'index.html',
      defaultBehavior: siteBehavior(this.memberBucket),
      additionalBehaviors: {
        // The admin build is uploaded under the key prefix admin/, so /admin/x is the key admin/x.
        '/admin/*': siteBehavior(this.adminBucket),
        // Hosted pictures (issue 28): /images/<sha256>/<width>.webp is the key of the same name.
        // Content-addressed, so cached for good (the objects say `immutable`, a year); no rewrite.
        '/images/*': {
          origin: S3BucketOrigin.withOriginAccessControl(this.imagesBucket),
          viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
          cachePolicy: CachePolicy.CACHING_OPTIMIZED,
          compress: false,
          responseHeadersPolicy: securityHeaders,
        },
        '/api/*': {
          origin: new HttpOrigin(Fn.parseDomainName(this.api.apiEndpoint), {
            protocolPolicy: OriginProtocolPolicy.HTTPS_ONLY,
          }),
          // POST bodies must not be redirected, so the API answers on HTTPS only.
          viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: AllowedMethods.ALLOW_ALL,
          cachePolicy: CachePolicy.CACHING_DISABLED,
          // CloudFront does not compress here; the functions do, by the browser's own Accept-Encoding,
          // which this policy forwards (functions/src/http/compress.ts, decision 0191). It forwards
          // every viewer header but Host (API Gateway answers only its own) and CloudFront's viewer
          // headers with them: CloudFront-Viewer-Address is the visitor countVisit tells apart
          // (decision 0464). A policy of our own could not do both: a list of headers may not name
          // Authorization, and "all viewer headers and these CloudFront ones" sends the Host.
          originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: securityHeaders,
        },
      },
      httpVersion: HttpVersion.HTTP2_AND_3,
      priceClass: PriceClass.PRICE_CLASS_100,
      enableLogging: true,
      logBucket: this.logsBucket,
      logFilePrefix: 'cloudfront/',
    });
    // The event functions that mail (the daily payouts' "your payout is on its way") link to the site too.
    for (const { event, function: fn } of eventResources.values()) {
      if (event.access.mail) fn.addEnvironment('SITE_URL', `https://${this.distribution.distributionDomainName}`);
    }
    Validations.of(this.distribution).acknowledge(
      {
        id: 'AwsSolutions-CFR1',
        reason:
          'The portal serves resellers wherever they are; no country is excluded by the business, so no geo restriction.',
      },
      {
        id: 'AwsSolutions-CFR2',
        reason:
          'No WAF web ACL yet (a per-month cost the project has not taken on); the API is throttled at the HTTP API stage and logins are rate limited in the handlers.',
      },
      {
        id: 'AwsSolutions-CFR4',
        reason:
          'No custom domain yet: the distribution uses the default *.cloudfront.net certificate, whose viewer security policy CloudFront fixes at TLSv1 (minimumProtocolVersion is ignored without a certificate). Set certificate, domainNames and minimumProtocolVersion TLS_V1_2_2021 when the domain is added.',
      },
    );

    // ---- The /api calls, one nested stack per capability ---------------------------------------
    // Each call costs about 7.5 resources (function, role, policy, log group, permission,
    // integration, route): in one stack the route table would pass CloudFormation's 500 a few
    // issues from now. Each capability's calls live in a nested stack of their own that shares this
    // stack's API, table, bucket and secrets through its parameters (capability-stack.ts).
    const routeResources = new Map<string, RouteResources>();
    const capabilityStacks = new Map<Capability, CapabilityStack>();
    for (const capability of capabilities) {
      const own = routes.filter((route) => capabilityFor(route.name) === capability);
      if (own.length === 0) continue;
      const nested = new CapabilityStack(this, `${capability}Calls`, {
        description: `Reseller portal: the ${capability} calls (${own.map((route) => route.name).join(', ')})`,
        routes: own,
        functionsDir,
        mail: props.mail,
        settings: props.settings,
        shared: {
          apiId: this.api.apiId,
          tableName: this.table.tableName,
          tableArn: this.table.tableArn,
          importsBucketName: this.importsBucket.bucketName,
          importsBucketArn: this.importsBucket.bucketArn,
          pictureQueueArn: this.pictureQueue.queueArn,
          pictureQueueUrl: this.pictureQueue.queueUrl,
          checkoutCancelQueueArn: this.checkoutCancelQueue.queueArn,
          checkoutCancelQueueUrl: this.checkoutCancelQueue.queueUrl,
          siteDomainName: this.distribution.distributionDomainName,
          secretArns: Object.fromEntries(
            Object.entries(this.secrets).map(([name, secret]) => [name, secret.secretArn]),
          ) as Record<StackSecretName, string>,
        },
      });
      capabilityStacks.set(capability, nested);
      for (const [name, made] of nested.routeResources) routeResources.set(name, made);
    }
    this.routeResources = routeResources;
    this.capabilityStacks = capabilityStacks;

    // The admin app uploads large CSVs straight to the imports bucket, with the presigned POST that
    // /api/createProductUpload returns; only the portal's own origin may do so from a browser.
    this.importsBucket.addCorsRule({
      allowedMethods: [HttpMethods.POST],
      allowedOrigins: [`https://${this.distribution.distributionDomainName}`],
      allowedHeaders: ['*'],
      maxAge: 3000,
    });

    // ---- Site content ------------------------------------------------------------------------
    const sites = [
      {
        name: 'member',
        dir: props.siteDist?.member ?? path.join(repoRoot, 'web-member', 'dist'),
        bucket: this.memberBucket,
        prefix: undefined,
        paths: ['/*'],
      },
      {
        name: 'admin',
        dir: props.siteDist?.admin ?? path.join(repoRoot, 'web-admin', 'dist'),
        bucket: this.adminBucket,
        prefix: 'admin/',
        paths: ['/admin/*'],
      },
    ];
    const built = sites.filter((site) => existsSync(path.join(site.dir, 'index.html')));
    for (const site of sites.filter((s) => !built.includes(s))) {
      Annotations.of(this).addWarningV2(
        `@portal/infra:${site.name}SiteNotBuilt`,
        `${path.relative(repoRoot, site.dir) || site.dir} has no index.html, so the ${site.name} app is not uploaded: run \`npm run build:web\` first (\`npm run deploy\` does).`,
      );
    }
    for (const site of built) {
      // A build made inside Vitest (the browser tests build the apps for the portal they start)
      // checks every API answer and loads the schemas with the first call: never upload one.
      const reason = testBuildReason(site.dir);
      if (reason) {
        Annotations.of(this).addError(
          `${path.relative(repoRoot, site.dir) || site.dir} ${reason}, so it is not what the ${site.name} app should ship: run \`npm run build:web\` before \`cdk deploy\` (\`npm run deploy\` does).`,
        );
      }
    }
    if (built.length > 0) {
      // One role and one log group shared by the deployments' handler (a singleton function).
      const deployLogs = new LogGroup(this, 'SiteDeploymentLogs', { retention: RetentionDays.ONE_MONTH });
      const deployRole = new Role(this, 'SiteDeploymentRole', {
        assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
        description: 'Copies the built apps into the site buckets and invalidates CloudFront',
      });
      deployLogs.grantWrite(deployRole);
      for (const site of built) {
        const name = site.name === 'member' ? 'Member' : 'Admin';
        const source = Source.asset(site.dir);
        // The build's brotli forms (<file>.br) are not part of the plain upload, nor pruned by it.
        new BucketDeployment(this, `${name}SiteDeployment`, {
          sources: [source],
          destinationBucket: site.bucket,
          destinationKeyPrefix: site.prefix,
          exclude: ['*.br'],
          distribution: this.distribution,
          distributionPaths: site.paths,
          role: deployRole,
          logGroup: deployLogs,
          memoryLimit: 512,
        });
        // They go up with Content-Encoding: br and their file's type; the site function serves them
        // to a browser that accepts brotli (spa-rewrite.ts). Hashed names: nothing to invalidate.
        for (const [kind, contentType] of [
          ['Scripts', 'text/javascript; charset=utf-8'],
          ['Styles', 'text/css; charset=utf-8'],
        ] as const) {
          new BucketDeployment(this, `${name}${kind}BrotliDeployment`, {
            sources: [source],
            destinationBucket: site.bucket,
            destinationKeyPrefix: site.prefix,
            exclude: ['*'],
            include: [kind === 'Scripts' ? 'assets/*.js.br' : 'assets/*.css.br'],
            contentType,
            contentEncoding: 'br',
            role: deployRole,
            logGroup: deployLogs,
            memoryLimit: 512,
          });
        }
      }
      const deploymentReason =
        'Grants made by aws-cdk-lib BucketDeployment for its own copy function, not changeable from here: s3 wildcard actions to read the CDK asset objects and to write and prune the site objects (bucket/*), and cloudfront:CreateInvalidation/GetInvalidation on * to invalidate the distribution after a deploy. The role is used by that function only.';
      const assetBucket = `arn:<AWS::Partition>:s3:::cdk-${DefaultStackSynthesizer.DEFAULT_QUALIFIER}-assets-<AWS::AccountId>-<AWS::Region>/*`;
      const findings = [
        'Action::s3:GetObject*',
        'Action::s3:GetBucket*',
        'Action::s3:List*',
        'Action::s3:DeleteObject*',
        'Action::s3:Abort*',
        'Resource::*',
        `Resource::${assetBucket}`,
        ...built.map((site) => `Resource::<${this.getLogicalId(site.bucket.node.defaultChild as CfnBucket)}.Arn>/*`),
      ];
      for (const finding of findings) {
        Validations.of(deployRole).acknowledge({ id: `AwsSolutions-IAM5[${finding}]`, reason: deploymentReason });
      }
      for (const child of this.node.children) {
        if (child.node.id.startsWith('Custom::CDKBucketDeployment')) {
          Validations.of(child).acknowledge({
            id: 'AwsSolutions-L1',
            reason: 'The runtime of the BucketDeployment copy function is chosen by aws-cdk-lib, not by this project.',
          });
        }
      }
    }

    // aws-cdk-lib's own deploy-time functions (the imports bucket's notification handler, the
    // trigger provider) log to a log group of the stack with a retention, as ours do (cfn-guard's
    // PORTAL_FUNCTION_LOG_GROUP); their roles have AWSLambdaBasicExecutionRole, which writes to it.
    for (const child of this.node.children) {
      const handler = child.node.id.startsWith('BucketNotificationsHandler')
        ? child.node.tryFindChild('Resource')
        : child.node.id === 'AWSCDK.TriggerCustomResourceProviderCustomResourceProvider'
          ? child.node.tryFindChild('Handler')
          : undefined;
      if (handler instanceof CfnResource && handler.cfnResourceType === 'AWS::Lambda::Function') {
        const logs = new LogGroup(child, 'Logs', { retention: RetentionDays.ONE_MONTH });
        handler.addPropertyOverride('LoggingConfig', { LogGroup: logs.logGroupName });
      }
    }

    // ---- Outputs -----------------------------------------------------------------------------
    new CfnOutput(this, 'SiteUrl', {
      description: 'The portal: member app at /, admin app at /admin/',
      value: `https://${this.distribution.distributionDomainName}/`,
    });
    new CfnOutput(this, 'ApiUrl', {
      description: 'The HTTP API itself; the apps call it through the site URL at /api/*',
      value: stage.url,
    });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'ImportsBucketName', { value: this.importsBucket.bucketName });
    new CfnOutput(this, 'FailedEventsQueueUrl', {
      description: 'Imports that failed all their tries, with the error (the FailedEventsAlarm watches it)',
      value: this.failedEvents.queueUrl,
    });
    new CfnOutput(this, 'PictureDeadLettersQueueUrl', {
      description: 'Picture messages that failed every try (the PictureDeadLettersAlarm watches it)',
      value: this.pictureDeadLetters.queueUrl,
    });
    new CfnOutput(this, 'CheckoutCancelDeadLettersQueueUrl', {
      description: 'Checkout-cancel steps that failed every try (the CheckoutCancelDeadLettersAlarm watches it)',
      value: this.checkoutCancelDeadLetters.queueUrl,
    });
    new CfnOutput(this, 'FailedEventsAlarmName', { value: this.failedEventsAlarm.alarmName });
    new CfnOutput(this, 'TokenSigningKeyArn', { value: tokenSigningKey.secretArn });
    new CfnOutput(this, 'StripeSecretKeyArn', {
      description: 'aws secretsmanager put-secret-value --secret-id <this> --secret-string sk_...',
      value: this.secrets.stripeSecretKey.secretArn,
    });
    new CfnOutput(this, 'StripeWebhookSecretArn', {
      description: 'aws secretsmanager put-secret-value --secret-id <this> --secret-string whsec_...',
      value: this.secrets.stripeWebhookSecret.secretArn,
    });
    new CfnOutput(this, 'StripeConnectWebhookSecretArn', {
      description:
        'aws secretsmanager put-secret-value --secret-id <this> --secret-string whsec_... (the Connect endpoint)',
      value: this.secrets.stripeConnectWebhookSecret.secretArn,
    });
    new CfnOutput(this, 'StripePublishableKeyArn', {
      description: 'aws secretsmanager put-secret-value --secret-id <this> --secret-string pk_...',
      value: this.secrets.stripePublishableKey.secretArn,
    });
  }

  /** What a function of this stack is built against: the stack's own table, bucket and secrets. */
  private functionDeps(): FunctionDeps {
    return {
      table: this.table,
      tableName: this.table.tableName,
      importsBucket: this.importsBucket,
      secrets: this.secrets,
      nagTableArn: `<${this.getLogicalId(this.table.node.defaultChild as CfnTable)}.Arn>`,
      nagImportsBucketArn: `<${this.getLogicalId(this.importsBucket.node.defaultChild as CfnBucket)}.Arn>`,
      imagesBucket: this.imagesBucket,
      nagImagesBucketArn: `<${this.getLogicalId(this.imagesBucket.node.defaultChild as CfnBucket)}.Arn>`,
      pictureQueue: this.pictureQueue,
      checkoutCancelQueue: this.checkoutCancelQueue,
      importQueue: this.importQueue,
    };
  }
}

/**
 * One function with its own role and log group, and exactly the access its entry lists: the
 * table (read or read-write), the imports bucket objects (get or put), the listed secrets.
 */
function appFunction(
  scope: Construct,
  spec: FunctionSpec,
  deps: FunctionDeps,
  options: {
    functionsDir: string;
    description: string;
    onFailure?: Queue;
    mail?: PortalStackProps['mail'];
    settings?: PortalStackProps['settings'];
    reservedConcurrency?: number;
  },
): FunctionResources {
  const { access } = spec;
  const logGroup = new LogGroup(scope, 'Logs', { retention: RetentionDays.ONE_MONTH });
  // An own role per function, writing only to its own log group (no AWSLambdaBasicExecutionRole).
  const role = new Role(scope, 'Role', {
    assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
    description: options.description,
  });
  logGroup.grantWrite(role);

  const environment: Record<string, string> = {
    TABLE_NAME: deps.tableName,
    ...options.settings,
    ...functionEnvironment,
    ...(functionNodeOptions ? { NODE_OPTIONS: functionNodeOptions } : {}),
  };
  for (const name of access.secrets) {
    environment[`${secretEnv[name]}_ARN`] = deps.secrets[name].secretArn;
  }
  if (access.importsBucket) environment.IMPORTS_BUCKET = deps.importsBucket.bucketName;
  if (access.imagesBucket) {
    if (!deps.imagesBucket)
      throw new Error(`${spec.module} lists the images bucket, which only the portal stack's functions get`);
    environment.IMAGES_BUCKET = deps.imagesBucket.bucketName;
  }

  const fn = new NodejsFunction(scope, 'Function', {
    description: options.description,
    entry: path.resolve(options.functionsDir, spec.module),
    handler: 'handler',
    projectRoot: repoRoot,
    depsLockFilePath: path.join(repoRoot, 'package-lock.json'),
    runtime: Runtime.NODEJS_24_X,
    architecture: Architecture.ARM_64,
    memorySize: spec.memoryMb,
    timeout: Duration.seconds(spec.timeoutSeconds),
    role,
    logGroup,
    environment,
    ...(options.onFailure ? { onFailure: new SqsDestination(options.onFailure), retryAttempts: 2 } : {}),
    ...(options.reservedConcurrency ? { reservedConcurrentExecutions: options.reservedConcurrency } : {}),
    bundling: {
      minify: functionBundling.minify,
      sourceMap: functionBundling.sourceMap,
      sourcesContent: functionBundling.sourcesContent,
      target: functionBundling.target,
      externalModules: [...functionBundling.externalModules, ...(spec.nativeModules ?? [])],
      format: OutputFormat.CJS,
      // CDK runs the local esbuild through `npx --no-install`; keep npm's update check off the network.
      environment: { npm_config_update_notifier: 'false' },
      ...(spec.nativeModules?.length ? { commandHooks: nativeModuleHooks(spec.nativeModules) } : {}),
    },
  });

  // The handler module the bundle is built from, in the template: the local runtime runs that very
  // module with this function's settings (infra/local/template.ts reads them back from the template).
  (fn.node.defaultChild as CfnResource).addMetadata(ENTRY_METADATA, spec.module);

  if (access.table === 'readwrite') deps.table.grantReadWriteData(role);
  else deps.table.grantReadData(role);
  Validations.of(role).acknowledge({
    id: `AwsSolutions-IAM5[Resource::${deps.nagTableArn}/index/*]`,
    reason:
      'The table grant also covers its global secondary indexes (gsi1, gsi2, gsi3) as index/*; the actions stay the read or read-write set the route table asks for, on this one table.',
  });

  if (access.importsBucket) {
    // Object-level only: GetObject to read an uploaded CSV, PutObject to store one or presign its upload.
    role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: [access.importsBucket === 'write' ? 's3:PutObject' : 's3:GetObject'],
        resources: [deps.importsBucket.arnForObjects('*')],
      }),
    );
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${deps.nagImportsBucketArn}/*]`,
      reason: `Object keys are made per import job (imports/<job id>/<file>), so the grant names the imports bucket's objects; it is the single action ${access.importsBucket === 'write' ? 's3:PutObject' : 's3:GetObject'} on that bucket only.`,
    });
  }

  if (access.places === 'autocomplete') {
    // Amazon Location Places v2 needs no place index: the call is allowed on AWS's default
    // provider in this region, and the function signs it with its role (no API key).
    role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['geo-places:Autocomplete'], resources: [placesProviderArn(Stack.of(scope))] }),
    );
  }

  if (access.mail === 'send' && options.mail) {
    // SESv2 SendEmail from the sender's identity only; MAIL_FROM names the sender, SITE_URL
    // (set once the distribution exists) the origin of the links.
    role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['ses:SendEmail'],
        resources: [mailIdentityArn(Stack.of(scope), options.mail.identity ?? senderDomain(options.mail.from))],
      }),
    );
    fn.addEnvironment('MAIL_FROM', options.mail.from);
    if (options.mail.adminsTo) fn.addEnvironment('ADMIN_MAIL_TO', options.mail.adminsTo);
  }

  if (access.imagesBucket && deps.imagesBucket) {
    // Objects: read (a picture hosted before, an address's record) and write (originals, variants,
    // records); the bucket: list, so a missing key answers 404 rather than 403.
    role.addToPrincipalPolicy(
      new PolicyStatement({
        actions: ['s3:GetObject', 's3:PutObject'],
        resources: [deps.imagesBucket.arnForObjects('*')],
      }),
    );
    role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['s3:ListBucket'], resources: [deps.imagesBucket.bucketArn] }),
    );
    Validations.of(role).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${deps.nagImagesBucketArn}/*]`,
      reason:
        "Picture keys are made from content hashes (images/<sha256>/…, sources/<sha256>.json), so the grant names the images bucket's objects: get and put on that bucket only.",
    });
  }

  if (access.pictureQueue) {
    if (!deps.pictureQueue) throw new Error(`${spec.module} lists the picture queue, which its stack does not have`);
    fn.addEnvironment('PICTURE_QUEUE_URL', deps.pictureQueue.queueUrl);
    // Sending only; consuming (receive, delete, change visibility) is granted by the event source mapping.
    if (access.pictureQueue === 'send') deps.pictureQueue.grantSendMessages(role);
  }

  if (access.checkoutCancelQueue) {
    if (!deps.checkoutCancelQueue) {
      throw new Error(`${spec.module} lists the checkout-cancel queue, which its stack does not have`);
    }
    fn.addEnvironment('CHECKOUT_CANCEL_QUEUE_URL', deps.checkoutCancelQueue.queueUrl);
    // Both send: the ban its first step, the cancel function each next one (it consumes through its mapping).
    deps.checkoutCancelQueue.grantSendMessages(role);
  }

  if (access.importQueue) {
    if (!deps.importQueue) throw new Error(`${spec.module} lists the import queue, which its stack does not have`);
    fn.addEnvironment('IMPORT_QUEUE_URL', deps.importQueue.queueUrl);
    // Each part may send the next; consuming is granted by the event source mapping.
    deps.importQueue.grantSendMessages(role);
  }

  for (const name of access.secrets) deps.secrets[name].grantRead(role);
  return { function: fn, role, logGroup };
}

/** Where the native modules are installed once per version for Lambda's platform before being copied into bundles. */
const NATIVE_CACHE = path.join(repoRoot, 'cdk.out', '.native-modules', 'linux-arm64-glibc');

/**
 * The bundling hooks of a function with native modules (sharp): after esbuild, the modules at
 * package-lock.json's versions are installed for linux-arm64 into the bundle folder (bundling.ts).
 */
export function nativeModuleHooks(modules: readonly string[]) {
  const lock = JSON.parse(readFileSync(path.join(repoRoot, 'package-lock.json'), 'utf8')) as Parameters<
    typeof lockedVersion
  >[0];
  const pinned = modules.map((name) => `${name}@${lockedVersion(lock, name)}`);
  const cache = path.join(NATIVE_CACHE, pinned.join('+').replace(/[^\w@.+-]/g, '_'));
  return {
    beforeBundling: (): string[] => [],
    beforeInstall: (): string[] => [],
    afterBundling: (_inputDir: string, outputDir: string): string[] => nativeModuleCommands(pinned, outputDir, cache),
  };
}

/**
 * Why a built app must not be uploaded, or undefined when it may: its `build.json` (written by
 * shared/src/build/build-info.ts) is missing, unreadable, or says the build checks every answer.
 */
function testBuildReason(dir: string): string | undefined {
  const info = readBuildInfo(dir);
  if (!info) return 'has no readable build.json (it was built by an older version or by hand)';
  if (info.checksAnswers) {
    return 'is a build made for tests (built where NODE_ENV was not production: it checks every API answer and loads the schemas with the first call)';
  }
  return undefined;
}
