// Stringee's npm package ships no types: the part we use is typed in providers/stringee-sdk.ts.
declare module 'stringee';
