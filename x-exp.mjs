import express from 'express';
const b = Buffer.from('{"message":"Text data"}');
const app = express();
app.disable('x-powered-by'); app.disable('etag');
app.get('/:store/:key', (req, res) => { res.writeHead(200, {'Content-Type':'application/json; charset=utf-8','Content-Length':b.length}); res.end(b); });
app.listen(3471, '127.0.0.1');
