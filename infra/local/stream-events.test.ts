import { describe, expect, it } from 'vitest';
import { matchesPattern, toLambdaRecord } from './stream-events';

/** The local stream mapping's filters and records, as Lambda's (decision 0481). */
describe("the local stream mapping's filter", () => {
  const pattern = { dynamodb: { Keys: { sk: { S: [{ prefix: 'EARNINGS#' }] } } } };
  const record = (sk: string, eventName = 'MODIFY') => ({
    eventName,
    dynamodb: { Keys: { pk: { S: 'USER#m1' }, sk: { S: sk } } },
  });

  it("hands over an earnings shard's write, not the place item's nor any other item's", () => {
    expect(matchesPattern(pattern, record('EARNINGS#SHARD#07'))).toBe(true);
    expect(matchesPattern(pattern, record('EARNINGS'))).toBe(false);
    expect(matchesPattern(pattern, record('PROFILE'))).toBe(false);
    expect(matchesPattern(pattern, { dynamodb: { Keys: { pk: { S: 'USER#m1' } } } })).toBe(false);
  });

  it('knows equal values, exists and anything-but, and refuses an operator it does not run', () => {
    expect(matchesPattern({ eventName: ['INSERT', 'MODIFY'] }, record('x'))).toBe(true);
    expect(matchesPattern({ eventName: ['REMOVE'] }, record('x'))).toBe(false);
    expect(matchesPattern({ eventName: [{ 'anything-but': ['REMOVE'] }] }, record('x'))).toBe(true);
    expect(matchesPattern({ dynamodb: { NewImage: [{ exists: false }] } }, record('x'))).toBe(true);
    expect(() => matchesPattern({ eventName: [{ numeric: ['>', 1] }] }, record('x'))).toThrow(/numeric/);
  });

  it("gives the function Lambda's record: the stream's ARN, the region, the creation time in epoch seconds", () => {
    const made = toLambdaRecord(
      {
        eventID: 'e1',
        eventName: 'MODIFY',
        eventVersion: '1.1',
        eventSource: 'aws:dynamodb',
        awsRegion: 'ddblocal',
        dynamodb: {
          ApproximateCreationDateTime: new Date('2026-12-02T10:00:00Z'),
          Keys: { pk: { S: 'USER#m1' }, sk: { S: 'EARNINGS#SHARD#01' } },
          SequenceNumber: '000000000000000000042',
          SizeBytes: 40,
          StreamViewType: 'KEYS_ONLY',
        },
      },
      'arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/1',
      'us-east-1',
    );
    expect(made).toEqual({
      eventID: 'e1',
      eventName: 'MODIFY',
      eventVersion: '1.1',
      eventSource: 'aws:dynamodb',
      awsRegion: 'us-east-1',
      eventSourceARN: 'arn:aws:dynamodb:us-east-1:000000000000:table/t/stream/1',
      dynamodb: {
        ApproximateCreationDateTime: Date.parse('2026-12-02T10:00:00Z') / 1000,
        Keys: { pk: { S: 'USER#m1' }, sk: { S: 'EARNINGS#SHARD#01' } },
        SequenceNumber: '000000000000000000042',
        SizeBytes: 40,
        StreamViewType: 'KEYS_ONLY',
      },
    });
  });
});
