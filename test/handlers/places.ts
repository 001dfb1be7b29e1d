import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { inject } from 'vitest';
import { handler as refreshPlacesHandler } from '../../functions/src/handlers/streams/refresh-places';
import { ensureStream, localAws, tableStreamArn } from '../../infra/local/dynamo';
import { mappingSettings, pollStream, type StreamBatchFailure } from '../../infra/local/stream-events';
import { templateFunctions, withTrigger } from '../../infra/local/template';
import { asFunction } from './helpers';

/**
 * Turns this file's table's stream on, as the stack makes the table (decision 0481): before the
 * file writes anything whose place it reads. The handler tests' tables are made without it
 * (setup.ts), as DynamoDB Local's writes slow down with every stream-enabled table of its process.
 */
export async function withTableStream(): Promise<void> {
  const client = new DynamoDBClient({ ...localAws, endpoint: inject('dynamoEndpoint') });
  try {
    await ensureStream(client, process.env.TABLE_NAME!);
  } finally {
    client.destroy();
  }
}

/**
 * The members' top-earners places of this file's table, written as the stack writes them (decision
 * 0481): the places function behind the local event source mapping on the table's stream, with the
 * mapping's own settings (its filter, batch size, partial failures) read from the synthesized stack.
 * A sale or a refund moves a place only through it, so a test that reads a place after one waits for
 * it here: the stream is read from its start until nothing new is left, then the poller stops.
 */
export async function placesRefreshed(
  options: { handler?: typeof refreshPlacesHandler; failures?: StreamBatchFailure[] } = {},
): Promise<void> {
  const mapping = withTrigger(templateFunctions(inject('templates')), 'dynamodb').find(
    ({ fn }) => fn.name === 'refreshPlaces',
  )?.trigger;
  if (!mapping) throw new Error('The synthesized stack maps no table stream to refreshPlaces');
  const endpoint = inject('dynamoEndpoint');
  const client = new DynamoDBClient({ ...localAws, endpoint });
  const streams = new DynamoDBStreamsClient({ ...localAws, endpoint });
  const handler = options.handler ?? refreshPlacesHandler;
  const poller = pollStream({
    streams,
    streamArn: await tableStreamArn(client, process.env.TABLE_NAME!),
    handler: (event) => asFunction('refreshPlaces', () => handler(event)),
    ...mappingSettings(mapping),
    retryDelayMs: 1,
    onFailure: async (failure) => void options.failures?.push(failure),
  });
  try {
    await poller.idle();
  } finally {
    await poller.stop();
    client.destroy();
    streams.destroy();
  }
}
