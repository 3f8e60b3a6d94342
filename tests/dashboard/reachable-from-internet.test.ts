// Whether the home page tells Claude and ChatGPT users they need a public HTTPS address: a rule
// on the base URL alone, checked without the app (the page itself is in home-and-account.test.ts).
import { reachableFromInternet } from '../../src/dashboard/home-page';

describe('reachableFromInternet', () => {
  test.each([
    ['https://quiz.example.com', true],
    ['http://quiz.example.com', false],
    ['https://localhost:3000', false],
    ['https://127.0.0.1', false],
    ['https://10.1.2.3', false],
    ['https://192.168.0.10', false],
    ['https://172.20.0.1', false],
    ['https://[::1]:3000', false],
    ['https://[fd12::1]', false],
    ['https://[2001:db8::1]', true],
    ['https://app.localhost', false],
  ])('%s reachable from the internet: %s', (url, reachable) => {
    expect(reachableFromInternet(url)).toBe(reachable);
  });
});
