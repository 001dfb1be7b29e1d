import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { env } from '../../config/env';
import type { ImportContinuations } from '../../imports/job-store';

/**
 * The import's continuation queue: SQS in AWS, the local SQS under npm start and the tests
 * (infra/local/sqs.ts), through the same client. IMPORT_QUEUE_URL names it.
 */
let client: SQSClient | undefined;
function sqs(): SQSClient {
  const { SQS_ENDPOINT, AWS_REGION } = env();
  client ??= new SQSClient({ region: AWS_REGION, ...(SQS_ENDPOINT ? { endpoint: SQS_ENDPOINT } : {}) });
  return client;
}

export const sqsImportContinuations: ImportContinuations = {
  async send(message) {
    const url = env().IMPORT_QUEUE_URL;
    if (!url) throw new Error('Environment is incomplete: set IMPORT_QUEUE_URL');
    await sqs().send(new SendMessageCommand({ QueueUrl: url, MessageBody: JSON.stringify(message) }));
  },
};
