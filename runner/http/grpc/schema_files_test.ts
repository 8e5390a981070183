/**
 * Schema files a hostile or mistaken command line names: a device, a FIFO (as the file or as one of its
 * imports) and a folder are refused at once naming the path (`--proto /dev/zero` read forever, as did a k6
 * script's `client.load` of it, refused only after the script's minute), a protoset the same; a proto that
 * does not parse is named with its line and without the import-folder hint, which only a missing file gets.
 */
import { ok, throws } from "node:assert/strict";
import { GrpcSchemaError, loadProtoFile, loadProtoset } from "./schema.ts";

Deno.test("a schema path that is not a regular file is refused at once, naming it", () => {
  const dir = Deno.makeTempDirSync({ prefix: "loadlab-grpc-schema-" });
  try {
    new Deno.Command("mkfifo", { args: [`${dir}/pipe.proto`] }).outputSync();
    Deno.writeTextFileSync(`${dir}/imports_pipe.proto`, 'syntax = "proto3";\nimport "pipe.proto";\n');
    Deno.writeTextFileSync(`${dir}/broken.proto`, 'syntax = "proto3";\nmessage A { string a = 1\n');
    const refused = (load: () => unknown, why: RegExp, hint = "") =>
      throws(load, (err: unknown) => {
        ok(err instanceof GrpcSchemaError && why.test(err.message), String(err));
        ok(err.hint === hint, `hint: ${err.hint}`);
        return true;
      });
    refused(() => loadProtoFile("/dev/zero"), /--proto \/dev\/zero: \/dev\/zero: is a character device/);
    refused(() => loadProtoFile(`${dir}/pipe.proto`), /pipe\.proto: is a FIFO/);
    refused(
      () => loadProtoFile(`${dir}/imports_pipe.proto`),
      /imports_pipe\.proto: .*pipe\.proto: is a FIFO/,
    );
    refused(() => loadProtoFile(dir), /is a folder/);
    refused(() => loadProtoFile(`${dir}/broken.proto`), /illegal token .*line 3/);
    refused(
      () => loadProtoFile(`${dir}/none.proto`),
      /ENOENT/,
      "add the folder its imports are under with -i DIR",
    );
    refused(
      () => loadProtoset("/dev/zero"),
      /--protoset \/dev\/zero: cannot read it \(is a character device/,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
