ALTER TABLE "broadcast_recipients" DROP CONSTRAINT "broadcast_recipients_broadcast_id_broadcasts_id_fk";
