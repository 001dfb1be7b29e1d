import { LOCAL_ACCOUNT, LOCAL_REGION } from './policy';

/* eslint-disable @typescript-eslint/no-explicit-any -- commands' inputs are read generically */

/** One action on one resource that AWS authorizes for a call (a call may need several: a transaction's items). */
export interface AuthorizationRequest {
  action: string;
  resource: string;
  context: Record<string, string | string[]>;
}

const tableArn = (table: string) => `arn:aws:dynamodb:${LOCAL_REGION}:${LOCAL_ACCOUNT}:table/${table}`;
const indexArn = (table: string, index: string) => `${tableArn(table)}/index/${index}`;
const bucketArn = (bucket: string) => `arn:aws:s3:::${bucket}`;
const objectArn = (bucket: string, key: string) => `arn:aws:s3:::${bucket}/${key}`;
/** The identity SES authorizes a send against: the sender's domain (the stack's default, `mailIdentity` aside). */
export const sesIdentityArn = (identity: string) => `arn:aws:ses:${LOCAL_REGION}:${LOCAL_ACCOUNT}:identity/${identity}`;
export const placesProviderArn = `arn:aws:geo-places:${LOCAL_REGION}::provider/default`;
const secretArn = (id: string) =>
  id.startsWith('arn:') ? id : `arn:aws:secretsmanager:${LOCAL_REGION}:${LOCAL_ACCOUNT}:secret:${id}`;

/**
 * The ARN of the queue a queue URL names (`http(s)://<host>/<account>/<name>`): SQS authorizes on
 * the queue's ARN, in the local account (the local SQS's own account id in its URLs aside).
 */
export const queueArnOfUrl = (url: string): string =>
  `arn:aws:sqs:${LOCAL_REGION}:${LOCAL_ACCOUNT}:${url.replace(/\/+$/, '').split('/').at(-1) ?? ''}`;

/** `GetItemCommand` -> `GetItem`. */
const operation = (commandName: string) => commandName.replace(/Command$/, '');

/** The address in `Name <address>` or a bare address, and its domain. */
export function senderOf(from: string): { address: string; domain: string } {
  const address = (/<([^>]+)>/.exec(from)?.[1] ?? from).trim();
  return { address, domain: address.slice(address.lastIndexOf('@') + 1) };
}

/**
 * What AWS authorizes for one SDK command, by the service's authorization reference: DynamoDB on
 * the table or, for a Query or Scan naming IndexName, the index; a transaction per item (Put ->
 * PutItem, Update -> UpdateItem, Delete -> DeleteItem, ConditionCheck -> ConditionCheckItem, Get
 * -> GetItem) on each item's table; a batch per table. S3: objects for the object calls, the
 * bucket (with `s3:prefix`, `s3:delimiter`, `s3:max-keys`) for a listing, HeadObject as
 * s3:GetObject, CopyObject as a put and a read. SES v2 SendEmail on the sender's identity (with
 * `ses:FromAddress`); Secrets Manager on the secret; Places v2 on the default provider; SQS on
 * the queue's ARN (a batch as its single action). Any other
 * command is `<service>:<operation>` on its table, bucket or `*`, so nothing passes unchecked.
 */
export function requestsFor(clientName: string, commandName: string, input: any): AuthorizationRequest[] {
  const name = operation(commandName);
  switch (clientName) {
    case 'DynamoDBClient':
      return dynamoRequests(name, input ?? {});
    case 'S3Client':
      return s3Requests(name, input ?? {});
    case 'SESv2Client':
    case 'SESClient': {
      const from: string | undefined = input?.FromEmailAddress ?? input?.Source;
      const identity = input?.FromEmailAddressIdentityArn ?? (from ? sesIdentityArn(senderOf(from).domain) : '*');
      return [
        {
          action: `ses:${name === 'SendRawEmail' ? 'SendRawEmail' : name}`,
          resource: identity,
          context: from ? { 'ses:FromAddress': senderOf(from).address } : {},
        },
      ];
    }
    case 'SecretsManagerClient':
      return [{ action: `secretsmanager:${name}`, resource: secretArn(String(input?.SecretId ?? '*')), context: {} }];
    case 'GeoPlacesClient':
      return [{ action: `geo-places:${name}`, resource: placesProviderArn, context: {} }];
    case 'SQSClient':
      return sqsRequests(name, input ?? {});
    default: {
      const service = clientName.replace(/Client$/, '').toLowerCase();
      return [{ action: `${service}:${name}`, resource: '*', context: {} }];
    }
  }
}

function dynamoRequests(name: string, input: any): AuthorizationRequest[] {
  const on = (action: string, table: string, index?: string): AuthorizationRequest => ({
    action: `dynamodb:${action}`,
    resource: index ? indexArn(table, index) : tableArn(table),
    context: {},
  });
  switch (name) {
    case 'BatchGetItem':
    case 'BatchWriteItem':
      return Object.keys(input.RequestItems ?? {}).map((table) => on(name, table));
    case 'TransactWriteItems':
      return (input.TransactItems ?? []).map((item: any) => {
        if (item.Put) return on('PutItem', item.Put.TableName);
        if (item.Update) return on('UpdateItem', item.Update.TableName);
        if (item.Delete) return on('DeleteItem', item.Delete.TableName);
        return on('ConditionCheckItem', item.ConditionCheck?.TableName);
      });
    case 'TransactGetItems':
      return (input.TransactItems ?? []).map((item: any) => on('GetItem', item.Get?.TableName));
    case 'Query':
    case 'Scan':
      return [on(name, input.TableName, input.IndexName)];
    default:
      return [input.TableName ? on(name, input.TableName) : { action: `dynamodb:${name}`, resource: '*', context: {} }];
  }
}

/**
 * SQS: every action on the queue's ARN; the batch calls are authorized as their single action
 * (SendMessageBatch as sqs:SendMessage, DeleteMessageBatch as sqs:DeleteMessage,
 * ChangeMessageVisibilityBatch as sqs:ChangeMessageVisibility: SQS's authorization reference).
 * CreateQueue and GetQueueUrl name the queue by QueueName; ListQueues is on `*`.
 */
function sqsRequests(name: string, input: any): AuthorizationRequest[] {
  const single: Record<string, string> = {
    SendMessageBatch: 'SendMessage',
    DeleteMessageBatch: 'DeleteMessage',
    ChangeMessageVisibilityBatch: 'ChangeMessageVisibility',
  };
  const action = `sqs:${single[name] ?? name}`;
  if (typeof input.QueueUrl === 'string') return [{ action, resource: queueArnOfUrl(input.QueueUrl), context: {} }];
  if (typeof input.QueueName === 'string') {
    return [{ action, resource: `arn:aws:sqs:${LOCAL_REGION}:${LOCAL_ACCOUNT}:${input.QueueName}`, context: {} }];
  }
  return [{ action, resource: '*', context: {} }];
}

function s3Requests(name: string, input: any): AuthorizationRequest[] {
  const bucket = String(input.Bucket ?? '');
  const object = (action: string, key = String(input.Key ?? '')): AuthorizationRequest => ({
    action,
    resource: objectArn(bucket, key),
    context: {},
  });
  switch (name) {
    case 'GetObject':
    case 'HeadObject':
      return [object(input.VersionId ? 's3:GetObjectVersion' : 's3:GetObject')];
    case 'PutObject':
    case 'CreateMultipartUpload':
    case 'UploadPart':
    case 'CompleteMultipartUpload':
      return [object('s3:PutObject')];
    case 'DeleteObject':
      return [object('s3:DeleteObject')];
    case 'DeleteObjects':
      return (input.Delete?.Objects ?? []).map((entry: any) => object('s3:DeleteObject', String(entry.Key)));
    case 'CopyObject': {
      const source = decodeURIComponent(String(input.CopySource ?? '').replace(/^\//, ''));
      const slash = source.indexOf('/');
      return [
        object('s3:PutObject'),
        { action: 's3:GetObject', resource: objectArn(source.slice(0, slash), source.slice(slash + 1)), context: {} },
      ];
    }
    case 'ListObjects':
    case 'ListObjectsV2':
    case 'HeadBucket': {
      const context: Record<string, string> = { 's3:prefix': String(input.Prefix ?? '') };
      if (input.Delimiter !== undefined) context['s3:delimiter'] = String(input.Delimiter);
      if (input.MaxKeys !== undefined) context['s3:max-keys'] = String(input.MaxKeys);
      return [{ action: 's3:ListBucket', resource: bucketArn(bucket), context: name === 'HeadBucket' ? {} : context }];
    }
    case 'ListObjectVersions':
      return [{ action: 's3:ListBucketVersions', resource: bucketArn(bucket), context: {} }];
    default:
      return [
        input.Key !== undefined
          ? object(`s3:${name}`)
          : { action: `s3:${name}`, resource: bucket ? bucketArn(bucket) : '*', context: {} },
      ];
  }
}
