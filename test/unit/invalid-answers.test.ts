// Answers the SDK would drop are turned into errors; the check on server-sent events reads the top level of the
// bytes and parses only what it cannot tell from there. It must agree with the parse on every message.
import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { answerOrErrorData, answerOrErrorText } from '../../src/core/connection/invalidAnswers';

const bytesOf = (lines: string[]) => lines.map((l) => new Uint8Array(Buffer.from(l)));
const byParse = (lines: string[]) => {
  const text = lines.join('\n');
  const checked = answerOrErrorText(text, 'srv');
  return checked === text ? undefined : checked;
};

test('messages kept as they are, and answers turned into errors, as the parse would have it', () => {
  const kept = [
    ['{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"a } \\" { ] \\\\"}]}}'],
    ['{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}'],
    ['{"jsonrpc":"2.0","id":"x","method":"elicitation/create","params":{}}'],
    ['{"id":1,', ' "result" : {"t":"é😀"} }'],
    ['[1,2]'],
    ['"text"'],
    ['not json'],
    ['{}'],
    [''],
    ['{"id":null,"result":5}'],
    ['{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"m"}}'],
  ];
  for (const lines of kept) assert.equal(answerOrErrorData(bytesOf(lines), 'srv'), undefined, lines.join('\\n'));

  const changed: Array<[string[], RegExp]> = [
    [['{"jsonrpc":"2.0","id":1,"result":null}'], /"result" that is null/],
    [['{"jsonrpc":"2.0","id":-2}'], /neither "result" nor "error"/],
    [['{"id":1,"result":{},', '"error":{"code":1,"message":"x"}}'], /both "result" and "error"/],
    [['{"id":"a","error":"bad"}'], /an "error" without a numeric code/],
    [['{"id":1,"result":[]}'], /"result" that is an array/],
    [['{"id":1,"res\\u0075lt":5}'], /"result" that is a number/],
    [['{"id":1,"result":{},"result":5}'], /"result" that is a number/],
    [['{"id":1,"result":{},"res\\u0075lt":5}'], /"result" that is a number/],
  ];
  for (const [lines, problem] of changed) {
    const replacement = answerOrErrorData(bytesOf(lines), 'srv');
    assert.equal(replacement, byParse(lines), lines.join('\\n'));
    const answer = JSON.parse(replacement!) as { id: unknown; error: { message: string } };
    assert.match(answer.error.message, problem);
    assert.ok([1, -2, 'a'].includes(answer.id as number));
  }
});

test('2,000 generated messages: the top-level reading agrees with the parse', () => {
  let seed = 7;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const values = ['{}', '{"a":[1,{"b":"}"}]}', 'null', '5', '-1.5e3', '"s\\"}"', '[]', '[{"x":"]"}]', 'true', '{"code":1,"message":"m"}', '{"code":"1"}'];
  const keys = ['"id"', '"method"', '"result"', '"error"', '"jsonrpc"', '"params"', '"resultX"', '"i\\u0064"', '"res\\u0075lt"'];
  const space = () => [' ', '', '\t', '\n', ''][random(5)]!;
  for (let n = 0; n < 2000; n++) {
    const members = Array.from({ length: random(5) }, () => `${keys[random(keys.length)]}${space()}:${space()}${values[random(values.length)]}`);
    const text = `${space()}{${space()}${members.join(`${space()},${space()}`)}${space()}}${space()}`;
    const lines = text.split('\n');
    assert.equal(answerOrErrorData(bytesOf(lines), 'srv'), byParse(lines), JSON.stringify(text));
  }
});
