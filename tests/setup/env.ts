// Tests never read the developer's .env or log to the console unless asked.
process.env.LOG_LEVEL ??= 'silent';
process.env.NODE_ENV ??= 'test';
