import { afterEach, describe, expect, it } from 'vitest';
import { JAVA_MISSING, assertJava } from './dynamo';

const path = process.env.PATH;
afterEach(() => {
  process.env.PATH = path;
});

describe('assertJava', () => {
  it('stops with a message that says how to install Java 17 when no java is on PATH', () => {
    process.env.PATH = '/nonexistent';
    expect(() => assertJava()).toThrow(JAVA_MISSING);
    expect(JAVA_MISSING).toMatch(/Java 17/);
    expect(JAVA_MISSING).toMatch(/apt-get install -y openjdk-17-jre-headless/);
  });

  it('passes when Java 17 or newer is installed', () => {
    expect(() => assertJava()).not.toThrow();
  });
});
