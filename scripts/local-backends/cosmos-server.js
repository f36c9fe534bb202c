// Starts @vercel/cosmosdb-server over HTTPS with a certificate made for 127.0.0.1/localhost
// (the package's own certificate has expired and names another host).
// Usage: node cosmos-server.js <module dir> <host> <port> <cert.pem> <key.pem>
const fs = require("fs");
const [, , moduleDir, host, port, certFile, keyFile] = process.argv;
const { createHttpsServer } = require(moduleDir);
const server = createHttpsServer({ cert: fs.readFileSync(certFile), key: fs.readFileSync(keyFile) });
server.listen(parseInt(port, 10), host, () => console.log(`cosmosdb-server ready at https://${host}:${port}`));
